/**
 * @module @records-service/sqlite
 * The Records Service `Storage` on SQLite (better-sqlite3 + drizzle-orm): one file (or
 * `:memory:`), migrated on open, with list queries compiled to indexed SQL.
 *
 * @example
 * import { createSqliteStorage } from "@records-service/sqlite";
 * const storage = createSqliteStorage({ path: "./data/records.db" });
 */

// --- the adapter ---
export { createSqliteStorage, type SqliteStorageOptions } from "./driver.js";

// --- lower level: the opened database and the query compiler (benchmarks, tools) ---
export { openDatabase, type Db, type OpenOptions } from "./open.js";

// --- `records-service copy`: a SQLite file read whole, read-only ---
export { openSqliteCopySource, type SqliteCopySource } from "./copy-source.js";
;
