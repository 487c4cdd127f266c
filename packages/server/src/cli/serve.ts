/**
 * @module cli/serve
 * `records-service serve`: loads the config, starts the server, waits for SIGTERM/SIGINT,
 * shuts down gracefully. The access log goes to stdout as one JSON line per request. With
 * `--processes N` above 1, the primary of N such processes (cli/serve-cluster).
 */
import cluster from "node:cluster";
import { loadConfig } from "../config.js";
import { startServer, type RunningServer } from "../runtime.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { runServeCluster, runServeWorker, startFailure } from "./serve-cluster.js";

/** Serves until asked to stop; returns the exit code. */
export async function runServe(cmd: Extract<Command, { kind: "serve" }>, io: CliIo): Promise<number> {
  if (cluster.isWorker) return runServeWorker(cmd, io);
  if (cmd.processes > 1) return runServeCluster(cmd, io);
  // Listen for the signals first: a stop asked for during start-up is honoured once started.
  const stopRequested = io.stopRequested();
  let server: RunningServer;
  try {
    server = await startServer({
      db: cmd.db,
      host: cmd.host,
      port: cmd.port,
      ...(cmd.config === undefined ? {} : { config: loadConfig(cmd.config) }),
      out: io.out,
      ...(cmd.quiet ? {} : { log: (line: Record<string, unknown>) => io.out(JSON.stringify(line)) }),
    });
  } catch (e) {
    io.err(startFailure(e, cmd));
    return EXIT_FAILED;
  }
  const signal = await stopRequested;
  io.out(`records-service: ${signal} received, finishing requests in flight and shutting down`);
  await server.close();
  io.out("records-service: stopped");
  return EXIT_OK;
}
