/**
 * @module clock/existing-data
 * The emulator's guard: a manual clock stamps every write with a time that is not now, so
 * it must not run on a database that already holds real records unless the operator says
 * so (`serve --allow-existing-data`). A mistyped or defaulted `--db` would otherwise mix
 * made-up times into real data (an update dated months before its record's creation).
 */
import type { Storage } from "@records-service/core";
import { describeDb } from "../storage-open.js";

/** Thrown when a manual clock would start on a database with records; the CLI exits 2 with its one-line message. */
export class ExistingDataError extends Error {
  override readonly name = "ExistingDataError";
}

/**
 * Throws `ExistingDataError` when any flock of `storage` holds a record (in any state).
 *
 * @example
 * await refuseExistingData(storage, "./data/records.db"); // throws on a database in use
 */
export async function refuseExistingData(storage: Storage, db: string): Promise<void> {
  const withRecords: string[] = [];
  let records = 0;
  for (const flock of await storage.listFlocks()) {
    const types = await storage.summarizeTypes(flock.identifier);
    if (types.length === 0) continue;
    withRecords.push(flock.identifier);
    records += types.reduce((n, t) => n + t.count, 0);
  }
  if (withRecords.length === 0) return;
  const flocks = withRecords.length > 3 ? `${withRecords.slice(0, 3).join(", ")} and ${withRecords.length - 3} more` : withRecords.join(", ");
  throw new ExistingDataError(
    `records-service: refusing to run the manual clock (--clock manual) on ${describeDb(db)}: it holds records (${records} live, in flock ${flocks}) that the emulator's clock would stamp with made-up times; use --db :memory: or a scratch file, or add --allow-existing-data to run on it anyway`,
  );
}
