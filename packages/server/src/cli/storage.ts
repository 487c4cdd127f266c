/**
 * @module cli/storage
 * Opens the database for one CLI command and closes it whatever happens.
 */
import { existsSync } from "node:fs";
import type { Storage } from "@records-service/core";
import { isDatabaseUrl, openStorage } from "../storage-open.js";

/** Thrown by `withExistingStorage` for a database file that does not exist. */
class MissingDatabaseError extends Error {
  override readonly name = "MissingDatabaseError";
}

/**
 * Runs `fn` with the storage at `db` (a SQLite file, created with its folder if missing, or a
 * PostgreSQL URL, migrated if new), then closes it.
 */
export async function withStorage<T>(db: string, fn: (storage: Storage) => Promise<T>): Promise<T> {
  // A short-lived command caches nothing: no listener connection for other processes' commits.
  const storage = await openStorage(db, { watchChanges: false });
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
  if (!isDatabaseUrl(db) && !existsSync(db)) throw new MissingDatabaseError(`no database at ${db} (check --db)`);
  return withStorage(db, fn);
}
