/**
 * @module cli/storage
 * Opens the database for one CLI command and closes it whatever happens.
 */
import { existsSync } from "node:fs";
import type { Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";

/** Thrown by `withExistingStorage` for a database file that does not exist. */
export class MissingDatabaseError extends Error {
  override readonly name = "MissingDatabaseError";
}

/** Runs `fn` with the storage at `db` (created with its folder if missing), then closes it. */
export async function withStorage<T>(db: string, fn: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await createSqliteStorage({ path: db });
  try {
    return await fn(storage);
  } finally {
    await storage.close();
  }
}

/**
 * Like `withStorage`, for commands that only read: a database that does not exist is an
 * error (a mistyped `--db` must not create an empty database and report that it is empty).
 *
 * @example
 * await withExistingStorage("./data/records.db", (storage) => storage.listJobs({})); // throws MissingDatabaseError if absent
 */
export async function withExistingStorage<T>(db: string, fn: (storage: Storage) => Promise<T>): Promise<T> {
  if (!existsSync(db)) throw new MissingDatabaseError(`no database at ${db} (check --db)`);
  return withStorage(db, fn);
}
