/**
 * @module cli/start-failure
 * The one line `serve` prints when it cannot start (a bad config, a database out of reach,
 * a port taken), for the single process, the primary and its processes alike.
 */
import { ExistingDataError } from "../clock/existing-data.js";
import { ConfigError } from "../config.js";
import { describeDb, openFailure } from "../storage-open.js";

/** The one line a failed start prints (no stack). */
export function startFailure(e: unknown, cmd: { host: string; port: number; db: string }): string {
  if (e instanceof ConfigError || e instanceof ExistingDataError) return e.message;
  const unreachable = openFailure(e);
  if (unreachable !== undefined) return `records-service: ${unreachable}`;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    return `records-service: cannot listen on ${cmd.host}:${cmd.port}: the port is in use (EADDRINUSE); stop what listens there or choose another port with --port N (or env PORT)`;
  }
  if (code === "EACCES" || code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return `records-service: cannot listen on ${cmd.host}:${cmd.port}: ${code}`;
  }
  return `records-service: cannot start with database ${describeDb(cmd.db)}: ${e instanceof Error ? e.message : String(e)}`;
}
