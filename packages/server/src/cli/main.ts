/**
 * @module cli/main
 * The `records-service` command: parse, dispatch, map failures to exit codes (see
 * cli/exit-codes.ts). Bad command lines print one line on stderr.
 */
import { openFailure } from "../storage-open.js";
import { parseCommand, UsageError } from "./args.js";
import { runBackup, runRestore } from "./backup.js";
import { runCardUrl } from "./card-url.js";
import { runConfigApply, runConfigShow } from "./config.js";
import { runInvoiceUrl } from "./invoice-url.js";
import { runCopy } from "./copy.js";
import { runIndexes } from "./indexes.js";
import { runJobs } from "./jobs.js";
import { runOpenApi } from "./openapi.js";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "./exit-codes.js";
import { runFlockAdd } from "./flock-add.js";
import type { CliIo } from "./io.js";
import { runServe } from "./serve.js";
import { runUserAdd } from "./user-add.js";
import { runUserRevoke } from "./user-revoke.js";
import { runWebhookSecret } from "./webhook-secret.js";

/**
 * Runs one command line; resolves with the exit code.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), io);
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let cmd;
  try {
    cmd = parseCommand(argv, io.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(e.message);
    return EXIT_USAGE;
  }
  try {
    switch (cmd.kind) {
      case "help":
        io.out(cmd.text);
        return EXIT_OK;
      case "serve":
        return await runServe(cmd, io);
      case "flock-add":
        return await runFlockAdd(cmd, io);
      case "user-add":
        return await runUserAdd(cmd, io);
      case "user-revoke":
        return await runUserRevoke(cmd, io);
      case "card-url":
        return await runCardUrl(cmd, io);
      case "invoice-url":
        return await runInvoiceUrl(cmd, io);
      case "webhook-secret":
        return await runWebhookSecret(cmd, io);
      case "jobs":
        return await runJobs(cmd, io);
      case "indexes":
        return await runIndexes(cmd, io);
      case "config-apply":
        return await runConfigApply(cmd, io);
      case "config-show":
        return await runConfigShow(cmd, io);
      case "copy":
        return await runCopy(cmd, io);
      // Loaded when asked for: other commands (serve) need neither the CSV parser nor the progress bar.
      case "export":
        return await (await import("./export.js")).runExport(cmd, io);
      case "import":
        return await (await import("./import.js")).runImport(cmd, io);
      case "seed":
        return await (await import("./seed.js")).runSeed(cmd, io);
      case "openapi":
        return await runOpenApi(io);
      case "backup":
        return await runBackup(cmd, io);
      case "restore":
        return await runRestore(cmd, io);
    }
  } catch (e) {
    io.err(`records-service: ${openFailure(e) ?? (e instanceof Error ? e.message : String(e))}`);
    return EXIT_FAILED;
  }
}
