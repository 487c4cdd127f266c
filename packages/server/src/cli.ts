/**
 * @module cli
 * The `records-service` executable (bin shim: bin/records-service.js; built to dist/cli.js).
 * Wires the real process to `runCli`: stdout, stderr, environment and stop signals.
 */
import { runCli } from "./cli/main.js";

process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stopRequested: () =>
    new Promise((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        // A second signal while draining means "now": give up on the graceful close.
        process.once("SIGINT", () => process.exit(130));
        process.once("SIGTERM", () => process.exit(143));
        resolve(signal);
      };
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    }),
});
