/**
 * @module cli/storage
 * Opens the database for one CLI command and closes it whatever happens.
 */
import type { Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";

/** Runs `fn` with the storage at `db` (created with its folder if missing), then closes it. */
export async function withStorage<T>(db: string, fn: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await createSqliteStorage({ path: db });
  try {
    return await fn(storage);
  } finally {
    await storage.close();
  }
}
