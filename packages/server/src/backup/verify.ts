/**
 * @module backup/verify
 * Checks a SQLite file is a whole Records Service database: `PRAGMA integrity_check`
 * answers ok, and it has the service's tables; and counts its records per flock, the
 * figure a backup is compared on (with the source at the copy's snapshot) and a restore
 * reports.
 */
import Database from "better-sqlite3";

/** A file that is not a sound Records Service database. */
export class BackupVerifyError extends Error {
  override readonly name = "BackupVerifyError";
}

/** Records per flock (every flock listed, 0 included), in flock order. */
export type FlockCounts = Record<string, number>;

/** The tables a Records Service database has whatever its version. */
const REQUIRED_TABLES = ["flocks", "users", "collections", "records"] as const;

/**
 * Records per flock as `db` sees them (inside a transaction: at its snapshot).
 *
 * @example
 * recordCounts(db) // { demo: 120, north: 0 }
 */
export function recordCounts(db: Database.Database): FlockCounts {
  const rows = db
    .prepare<[], { flock: string; n: number }>(
      `SELECT f.identifier AS flock, (SELECT count(*) FROM records r JOIN collections c ON c.cid = r.cid WHERE c.flock = f.identifier) AS n
       FROM flocks f ORDER BY f.identifier`,
    )
    .all();
  return Object.fromEntries(rows.map((r) => [r.flock, r.n]));
}

/**
 * Opens `path` read-only and checks it; returns its record counts. Throws `BackupVerifyError`.
 *
 * @example
 * verifyDatabaseFile("./backups/records-2026-11-28T05-00-00Z.db") // { demo: 120 }
 */
export function verifyDatabaseFile(path: string): FlockCounts {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new BackupVerifyError(`cannot open ${path}: ${(e as Error).message}`);
  }
  try {
    return checkOpenDatabase(db, path);
  } finally {
    db.close();
  }
}

/** `verifyDatabaseFile` on an open connection. */
export function checkOpenDatabase(db: Database.Database, path: string): FlockCounts {
  let problems: string[];
  try {
    problems = db.prepare<[], { integrity_check: string }>("PRAGMA integrity_check").all().map((r) => r.integrity_check);
  } catch (e) {
    throw new BackupVerifyError(`${path} is not a SQLite database: ${(e as Error).message}`);
  }
  if (problems.length !== 1 || problems[0] !== "ok") {
    throw new BackupVerifyError(`${path} failed PRAGMA integrity_check: ${problems.slice(0, 3).join("; ")}`);
  }
  const tables = new Set(db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
  const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
  if (missing.length > 0) throw new BackupVerifyError(`${path} is not a Records Service database (no table ${missing.join(", ")})`);
  return recordCounts(db);
}
