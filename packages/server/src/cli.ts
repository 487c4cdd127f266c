/**
 * @module cli
 * The `records-service` executable (bin shim: bin/records-service.js; built to dist/cli.js).
 * Wires the real process to `runCli`: stdout, stderr, environment and stop signals.
 */
import cluster from "node:cluster";
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
      if (cluster.isWorker) {
        // One of `serve --processes N`: the primary asks (a terminal's Ctrl-C reaches every
        // process too); any further signal is the primary's to act on, so it is ignored here.
        const stop = (why: string) => {
          for (const s of ["SIGTERM", "SIGINT"] as const) process.removeAllListeners(s).on(s, () => {});
          resolve(why);
        };
        process.once("SIGTERM", () => stop("SIGTERM"));
        process.once("SIGINT", () => stop("SIGINT"));
        process.on("message", (m: { records?: string }) => m?.records === "stop" && stop("stop"));
        return;
      }
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

// A process of `serve --processes N` leaves the primary's channel once done, so it can exit.
if (cluster.isWorker) cluster.worker?.disconnect();
