/**
 * @module backup/postgres-advice
 * `backup` and `restore` copy SQLite files only. For a PostgreSQL database they say so and
 * print the PostgreSQL tools' commands instead of pretending (the same as docs/deploy.md).
 */
import { join } from "node:path";
import { describeDb } from "../storage-open.js";
import { backupFileName } from "./names.js";

/**
 * The lines `backup --db postgres://...` prints (exit 2).
 *
 * @example
 * backupAdvice("postgres://app:pw@db/records", "./backups", new Date())
 * // ["records-service backup: copies SQLite files only; it does not back up PostgreSQL (postgres://app:***@db/records). Use ...", "  pg_dump ... postgres://app@db/records", ...]
 */
export function backupAdvice(db: string, dir: string, at: Date): string[] {
  const file = join(dir, backupFileName(at).replace(/\.db$/, ".dump"));
  return [
    `records-service backup: copies SQLite files only; it does not back up PostgreSQL (${describeDb(db)}). Use PostgreSQL's own tools:`,
    `  pg_dump --format=custom --file=${_quote(file)} ${_quote(_withoutPassword(db))}`,
    `  (restore with: pg_restore --clean --if-exists --no-owner --dbname=${_quote(_withoutPassword(db))} ${_quote(file)})`,
    "The URL's password is left out: give it in PGPASSWORD or ~/.pgpass. See docs/deploy.md, Backups.",
  ];
}

/**
 * The lines `restore FILE --db postgres://...` prints (exit 2).
 *
 * @example
 * restoreAdvice("postgres://app@db/records", "records.dump")
 */
export function restoreAdvice(db: string, file: string): string[] {
  return [
    `records-service restore: restores SQLite files only; it does not restore into PostgreSQL (${describeDb(db)}). Use pg_restore on a pg_dump file:`,
    `  pg_restore --clean --if-exists --no-owner --dbname=${_quote(_withoutPassword(db))} ${_quote(file)}`,
    "The URL's password is left out: give it in PGPASSWORD or ~/.pgpass.",
    "A SQLite backup goes into PostgreSQL with: records-service restore FILE --db ./records.db, then records-service copy --from ./records.db --to postgres://... (see docs/deploy.md).",
  ];
}

// --- internal ---

/** The URL without its password, so the printed command runs as it is (with PGPASSWORD or ~/.pgpass). */
function _withoutPassword(db: string): string {
  try {
    const u = new URL(db);
    u.password = "";
    return u.toString();
  } catch {
    return describeDb(db);
  }
}

/** Single-quoted for a POSIX shell when it holds anything but safe characters. */
function _quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
