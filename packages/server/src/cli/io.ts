/**
 * @module cli/io
 * What a command may touch of the outside world, so commands run the same from the real
 * process and from tests.
 */
import type { CliEnv } from "./args.js";

export interface CliIo {
  /** One line to stdout. */
  out(line: string): void;
  /** One line to stderr. */
  err(line: string): void;
  env: CliEnv;
  /** The process's stdin (`import -`); absent where a command has none. */
  stdin?: NodeJS.ReadableStream;
  /** stdout as a stream, for outputs too large for `out` line by line (`export`: backpressure). */
  stdout?: NodeJS.WritableStream;
  /** stderr as a stream (the progress bar of `import`). */
  stderr?: NodeJS.WritableStream;
  /** Resolves with the signal name when the process is asked to stop (SIGTERM, SIGINT). */
  stopRequested(): Promise<string>;
}
