/**
 * @module @records-service/postgres
 * The Records Service `Storage` on PostgreSQL (node-postgres + drizzle-orm): migrated on
 * open under an advisory lock, list queries compiled by the shared compiler
 * (`@records-service/sql`), every change set one transaction.
 *
 * @example
 * import { createPostgresStorage } from "@records-service/postgres";
 * const storage = await createPostgresStorage({ url: "postgres://app@127.0.0.1:5432/records" });
 */

// --- the adapter ---
export { createPostgresStorage, type PostgresStorageOptions } from "./driver.js";
export { type PostgresTarget, type PostgresPoolOptions, type PoolHandle } from "./connect.js";
export { DatabaseUnavailableError } from "./errors.js";

// --- lower level: migrations, tables and the compiler (tools, benchmarks) ---
;
export { compiler } from "./read.js";
