/**
 * @module bench/lib/data-file
 * A SQLite data file a scenario makes once and reuses. An existing one is only migrated to
 * this version's schema (a scenario may then open it read-only); a new one is filled at
 * `<file>.partial` and renamed when whole, so an interrupted run never leaves half a file.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import type { Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";

/** `file`, made by `fill` on an empty storage when it is not there yet. */
export async function sqliteDataFile(file: string, fill: (storage: Storage) => Promise<void>): Promise<string> {
  if (existsSync(file)) {
    await createSqliteStorage({ path: file }).close();
    return file;
  }
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const storage = createSqliteStorage({ path: partial });
  await fill(storage);
  await storage.close();
  rmSync(`${partial}-wal`, { force: true });
  rmSync(`${partial}-shm`, { force: true });
  renameSync(partial, file);
  return file;
}
