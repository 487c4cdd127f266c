/**
 * @module text-functions
 * The SQL functions SQLite lacks for JavaScript's text semantics (see
 * `@records-service/sql`'s text-order): `records_cmp16` (UTF-16 order, where SQLite's
 * BINARY collation compares code points) and `records_lower` (JS `toLowerCase()`; SQLite's
 * `lower()` is ASCII only). Registered on every connection by `openDatabase`.
 */
import { CMP16 } from "@records-service/sql";
import type Database from "better-sqlite3";

export { CMP16 };
/** Name of the SQL function `records_lower(a)`: JS `toLowerCase()` (SQLite's lower() is ASCII only). */
export const LOWER = "records_lower";

/** Registers the functions above on a connection. */
export function registerTextFunctions(client: Database.Database): void {
  client.function(CMP16, { deterministic: true }, (a: unknown, b: unknown) => {
    const x = String(a);
    const y = String(b);
    return x === y ? 0 : x < y ? -1 : 1;
  });
  client.function(LOWER, { deterministic: true }, (a: unknown) => (a === null ? null : String(a).toLowerCase()));
}
