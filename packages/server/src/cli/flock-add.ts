/**
 * @module cli/flock-add
 * `records-service flock add ID [--name NAME] [--db PATH]`.
 */
import { formatTimestamp, systemClock } from "@records-service/core";
import type { Command } from "./args.js";
import { withStorage } from "./storage.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { describeDb } from "../storage-open.js";

/** Creates the flock; exit 1 when it exists already. */
export async function runFlockAdd(cmd: Extract<Command, { kind: "flock-add" }>, io: CliIo): Promise<number> {
  return withStorage(cmd.db, async (storage) => {
    const created = await storage.createFlock({ identifier: cmd.id, name: cmd.name, created: formatTimestamp(systemClock.now()) });
    if (!created) {
      io.err(`flock "${cmd.id}" already exists in ${describeDb(cmd.db)}`);
      return EXIT_FAILED;
    }
    io.out(`created flock "${cmd.id}" (${cmd.name}) in ${describeDb(cmd.db)}`);
    return EXIT_OK;
  });
}
