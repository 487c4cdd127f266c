/**
 * @module cli/serve
 * `records-service serve`: loads the config, starts the server, waits for SIGTERM/SIGINT,
 * shuts down gracefully. The access log goes to stdout as one JSON line per request. With
 * `--processes N` above 1, the primary of N such processes (cli/serve-cluster).
 */
import cluster from "node:cluster";
import { ExistingDataError } from "../clock/existing-data.js";
import { clockFromSetting } from "../clock/manual-clock.js";
import { ConfigError, loadConfig } from "../config.js";
import type { Config } from "../config/schema.js";
import { startServer, type RunningServer } from "../runtime.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { runServeCluster, type ClusterMessage } from "./serve-cluster.js";
import { startFailure } from "./start-failure.js";

/**
 * Serves until asked to stop; returns the exit code. As one of the processes of
 * `--processes N` (a cluster worker): its start-up messages are the primary's (printed
 * once there), its access log lines carry its pid, it tells the primary when it listens,
 * and it stops when the primary (or a signal) asks.
 */
export async function runServe(cmd: Extract<Command, { kind: "serve" }>, io: CliIo): Promise<number> {
  if (cluster.isPrimary && cmd.processes > 1) {
    // The config file's manual clock, like --clock manual, is one process's (cli/args).
    const config = cmd.config === undefined ? undefined : _loadConfigOrReport(cmd.config, io);
    if (config === null) return EXIT_FAILED;
    if (config !== undefined && config.clock !== "system" && cmd.clock?.kind !== "system") {
      io.err(`records-service: config clock "${config.clock}" runs one process: it cannot be used with --processes above 1`);
      return EXIT_FAILED;
    }
    return runServeCluster(cmd, io);
  }
  const worker = cluster.isWorker;
  // Listen for the signals first: a stop asked for during start-up is honoured once started.
  const stopRequested = io.stopRequested();
  let started = false;
  let server: RunningServer;
  try {
    server = await startServer({
      db: cmd.db,
      host: cmd.host,
      port: cmd.port,
      seed: !worker,
      // The primary serves metrics.port with every process's series (cli/serve-cluster).
      metricsViaPrimary: worker,
      // One of N processes runs with the configuration the primary applied (stored), never
      // its own copy of the file: a process replaced later must not undo a newer apply.
      ...(cmd.config === undefined || worker ? {} : { config: loadConfig(cmd.config), configSource: cmd.config }),
      // --clock wins over the config file's `clock`.
      ...(cmd.clock === undefined ? {} : { clock: clockFromSetting(cmd.clock) }),
      ...(cmd.allowExistingData ? { allowExistingData: true } : {}),
      // The primary fills the demo flock once; the other processes find it filled.
      ...(cmd.demoData && !worker ? { demoData: true } : {}),
      out: worker ? (line) => started && io.out(line) : io.out,
      ...(cmd.quiet ? {} : { log: (line: Record<string, unknown>) => io.out(JSON.stringify(worker ? { ...line, pid: process.pid } : line)) }),
    });
  } catch (e) {
    const line = startFailure(e, cmd);
    // The primary prints one line for all its processes (they fail alike: the port, the database).
    if (worker && process.send) await new Promise<void>((resolve) => process.send!({ records: "failed", line } satisfies ClusterMessage, () => resolve()));
    else io.err(line);
    // A manual clock on real data is refused like a bad flag: the command line must change.
    return e instanceof ExistingDataError ? EXIT_USAGE : EXIT_FAILED;
  }
  started = true;
  if (worker) process.send?.({ records: "listening", url: server.url } satisfies ClusterMessage);
  const signal = await stopRequested;
  if (!worker) io.out(`records-service: ${signal} received, finishing requests in flight and shutting down`);
  await server.close();
  if (!worker) io.out("records-service: stopped");
  return EXIT_OK;
}

// --- internal ---

/** The config file, or null once its error is printed (exit 1, as a worker would). */
function _loadConfigOrReport(path: string, io: CliIo): Config | null {
  try {
    return loadConfig(path);
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(e.message);
      return null;
    }
    throw e;
  }
}
