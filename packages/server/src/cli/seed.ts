/**
 * @module cli/seed
 * `records-service seed --flock ID [--persons N] [--seed S] [--db PATH]`: fills an existing
 * flock with sample people, memberships, payments and bookings (seed/seed-flock) through
 * the engine, for trying the service and the console out. No trigger runs for them (the
 * data events are recorded, nothing is delivered); the change log names the writes
 * `system:seed`.
 */
import { createRecordEngine, isRecordsError, systemAttribution, systemClock } from "@records-service/core";
import { seedFlock } from "../seed/seed-flock.js";
import type { Command } from "./args.js";
import { EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage } from "./storage.js";

/** Seeds the flock; prints the counts created. An unknown flock fails (exit 1). */
export async function runSeed(cmd: Extract<Command, { kind: "seed" }>, io: CliIo): Promise<number> {
  return withExistingStorage(cmd.db, async (storage) => {
    const engine = createRecordEngine({ storage, clock: systemClock }).withAttribution(systemAttribution("seed"));
    let report;
    try {
      report = await seedFlock(engine, cmd.flock, { persons: cmd.persons, seed: cmd.seed });
    } catch (e) {
      if (isRecordsError(e)) throw new Error(e.detail); // "flock 'x' does not exist"
      throw e;
    }
    io.out(`seeded flock ${cmd.flock}: ${report.person} person, ${report.membership} membership, ${report.payment} payment, ${report.booking} booking records`);
    return EXIT_OK;
  });
}
