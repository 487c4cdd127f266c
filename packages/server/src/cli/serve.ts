/**
 * @module cli/serve
 * `records-service serve`: loads the config, starts the server, waits for SIGTERM/SIGINT,
 * shuts down gracefully. The access log goes to stdout as one JSON line per request.
 */
import { clockFromSetting } from "../clock/manual-clock.js";
import { ConfigError, loadConfig } from "../config.js";
import { startServer, type RunningServer } from "../runtime.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { describeDb, openFailure } from "../storage-open.js";

/** Serves until asked to stop; returns the exit code. */
export async function runServe(cmd: Extract<Command, { kind: "serve" }>, io: CliIo): Promise<number> {
  // Listen for the signals first: a stop asked for during start-up is honoured once started.
  const stopRequested = io.stopRequested();
  let server: RunningServer;
  try {
    server = await startServer({
      db: cmd.db,
      host: cmd.host,
      port: cmd.port,
      ...(cmd.config === undefined ? {} : { config: loadConfig(cmd.config) }),
      // --clock wins over the config file's `clock`.
      ...(cmd.clock === undefined ? {} : { clock: clockFromSetting(cmd.clock) }),
      out: io.out,
      ...(cmd.quiet ? {} : { log: (line: Record<string, unknown>) => io.out(JSON.stringify(line)) }),
    });
  } catch (e) {
    io.err(_startFailure(e, cmd));
    return EXIT_FAILED;
  }
  const signal = await stopRequested;
  io.out(`records-service: ${signal} received, finishing requests in flight and shutting down`);
  await server.close();
  io.out("records-service: stopped");
  return EXIT_OK;
}

// --- internal ---

function _startFailure(e: unknown, cmd: { host: string; port: number; db: string }): string {
  if (e instanceof ConfigError) return e.message;
  const unreachable = openFailure(e);
  if (unreachable !== undefined) return `records-service: ${unreachable}`;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return `records-service: cannot listen on ${cmd.host}:${cmd.port}: ${code}`;
  }
  return `records-service: cannot start with database ${describeDb(cmd.db)}: ${e instanceof Error ? e.message : String(e)}`;
}
