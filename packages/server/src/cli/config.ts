/**
 * @module cli/config
 * `records-service config apply FILE [--db PATH]`: applies a config file to the database
 * (the secret, flocks and users written; the whole configuration recorded as the applied
 * one, which every running server takes up without restart). `records-service config show
 * [--db PATH]`: prints the applied configuration as JSON, secrets redacted.
 */
import { systemClock } from "@records-service/core";
import { applyConfig } from "../config/apply.js";
import { loadConfig } from "../config.js";
import { readAppliedConfig, recordAppliedConfig, redactedConfig } from "../config/stored.js";
import { describeApplied } from "../runtime/start-config.js";
import { describeDb } from "../storage-open.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage, withStorage } from "./storage.js";

/**
 * Applies the file; prints one line naming the revision (or that it was in force already).
 * A bad file is refused before the database is opened.
 *
 * @example
 * await runConfigApply({ kind: "config-apply", db: "./data/records.db", file: "records.json" }, io);
 * // config: applied revision 2 (2026-11-28T05:00:00Z, from records.json) to ./data/records.db; ...
 */
export async function runConfigApply(cmd: Extract<Command, { kind: "config-apply" }>, io: CliIo): Promise<number> {
  const config = loadConfig(cmd.file);
  for (const warning of config.warnings) io.err(warning);
  return withStorage(cmd.db, async (storage) => {
    const applied = await applyConfig(storage, systemClock, config);
    const recorded = await recordAppliedConfig(storage, systemClock, config, { source: cmd.file, secretChanged: applied.secretChanged });
    const stored = recorded!.stored;
    const created = applied.flocksCreated.length > 0 ? `; flocks created: ${applied.flocksCreated.join(", ")}` : "";
    if (recorded!.changed) {
      io.out(`config: applied revision ${stored.revision} to ${describeDb(cmd.db)}${created}; running servers take it up within seconds`);
    } else {
      io.out(`config: unchanged, revision ${stored.revision} (applied ${describeApplied(stored)}) is this configuration already${created}`);
    }
    return EXIT_OK;
  });
}

/** Prints the applied configuration as indented JSON; exit 1 when none was applied. */
export async function runConfigShow(cmd: Extract<Command, { kind: "config-show" }>, io: CliIo): Promise<number> {
  return withExistingStorage(cmd.db, async (storage) => {
    const stored = await readAppliedConfig(storage);
    if (!stored) {
      io.err(`records-service config show: no configuration has been applied to ${describeDb(cmd.db)} (records-service config apply FILE, or serve --config FILE)`);
      return EXIT_FAILED;
    }
    io.out(JSON.stringify(redactedConfig(stored), null, 2));
    return EXIT_OK;
  });
}
