/**
 * @module storage-open
 * Opens the Storage a `--db` value names: a `postgres://` (or `postgresql://`) URL opens
 * the PostgreSQL adapter with the config's pool size and statement timeout; anything else
 * is a SQLite file path (or `:memory:`); a value that looks like another URL is refused
 * (db-value). `describeDb` is the value as it may be printed
 * (a URL's password hidden).
 */
import type { Storage } from "@records-service/core";
import { createPostgresStorage, DatabaseUnavailableError } from "@records-service/postgres";
import { createSqliteStorage } from "@records-service/sqlite";
import { checkDbValue } from "./db-value.js";

/** The connection settings of the config file's `database` section. */
export interface DatabaseSettings {
  poolSize?: number;
  statementTimeoutMs?: number;
  /** Listen for other processes' commits so lookups can be cached (long-running servers). Default true. */
  watchChanges?: boolean;
}

/** True for a PostgreSQL URL. */
export function isDatabaseUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * Opens `db`: PostgreSQL for a URL (migrated on open), else the SQLite file.
 *
 * @example
 * const storage = await openStorage("postgres://app@127.0.0.1:5432/records", { poolSize: 20 });
 */
export async function openStorage(db: string, settings: DatabaseSettings = {}): Promise<Storage> {
  // The CLI refuses these with exit 2 first; library callers get the same line as an error.
  const problem = checkDbValue(db, "database");
  if (problem !== undefined) throw new Error(problem);
  if (!isDatabaseUrl(db)) return createSqliteStorage({ path: db });
  return createPostgresStorage({ url: db }, settings);
}

/**
 * `db` as it may be shown: a URL without its password.
 *
 * @example
 * describeDb("postgres://app:s3cret@db:5432/records") // "postgres://app:***@db:5432/records"
 */
export function describeDb(db: string): string {
  if (!isDatabaseUrl(db)) return db;
  try {
    const u = new URL(db);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(an invalid database URL)";
  }
}

/**
 * One line for an error opening `db`, or undefined when it is not about reaching it.
 *
 * @example
 * openFailure(e) // "cannot reach PostgreSQL at 127.0.0.1:5432/records: connect ECONNREFUSED 127.0.0.1:5432"
 */
export function openFailure(e: unknown): string | undefined {
  if (e instanceof DatabaseUnavailableError) return `cannot reach PostgreSQL at ${e.where}: ${e.reason}`;
  return undefined;
}
