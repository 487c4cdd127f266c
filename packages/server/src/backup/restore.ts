/**
 * @module backup/restore
 * Puts a backup back: the file is verified first (integrity, tables, counts), a target
 * that holds data is only overwritten when forced, and the pages are written through
 * SQLite's backup API into the target, so a process that has the target open sees either
 * the old database or the restored one, never a mix. The target is then migrated to this
 * version (a backup from an older version works) and its counts checked against the file's.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { openDatabase } from "@records-service/sqlite";
import { BackupVerifyError, recordCounts, verifyDatabaseFile, type FlockCounts } from "./verify.js";

/** The target holds data and `force` was not given. */
export class RestoreRefusedError extends Error {
  override readonly name = "RestoreRefusedError";
}

/** Options of `restoreBackup`. */
export interface RestoreOptions {
  /** The backup file. */
  file: string;
  /** The SQLite file to restore into (created with its folder if missing). */
  db: string;
  /** Overwrite a target that holds flocks, users or records. */
  force: boolean;
}

/**
 * Restores `file` into `db`; resolves with the restored counts. Throws
 * `BackupVerifyError` for a bad file and `RestoreRefusedError` for a target with data.
 *
 * @example
 * await restoreBackup({ file: "./backups/records-2026-11-28T05-00-00Z.db", db: "./data/records.db", force: false });
 */
export async function restoreBackup(opts: RestoreOptions): Promise<FlockCounts> {
  const counts = verifyDatabaseFile(opts.file);
  const held = _heldData(opts.db);
  if (held !== undefined && !opts.force) {
    throw new RestoreRefusedError(`records-service restore: ${opts.db} is not empty (${held}); add --force to overwrite it with ${opts.file}`);
  }
  mkdirSync(dirname(opts.db), { recursive: true });
  const source = new Database(opts.file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(opts.db);
  } finally {
    source.close();
  }
  // Migrates a backup of an older version forward (and turns the target to WAL).
  const target = openDatabase({ path: opts.db }).$client;
  try {
    const after = target.transaction(() => recordCounts(target))();
    if (JSON.stringify(after) !== JSON.stringify(counts)) {
      throw new BackupVerifyError(`the restored database's records per flock ${JSON.stringify(after)} differ from the file's ${JSON.stringify(counts)}`);
    }
  } finally {
    target.close();
  }
  return counts;
}

// --- internal ---

/** What the target holds ("2 flocks, 1 user, 40 records"), or undefined when it is missing or empty. */
function _heldData(path: string): string | undefined {
  if (!existsSync(path) || statSync(path).size === 0) return undefined;
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    return "a file that is not a SQLite database";
  }
  try {
    const n = (table: string) => {
      try {
        return db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
      } catch {
        return 0;
      }
    };
    const tables = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()!.n;
    const [flocks, users, records] = [n("flocks"), n("users"), n("records")];
    if (flocks + users + records > 0) return `${flocks} flock(s), ${users} user(s), ${records} record(s)`;
    if (tables > 0 && n("__drizzle_migrations") === 0) return `a SQLite database with ${tables} table(s) of another application`;
    return undefined;
  } catch {
    return "a file that is not a SQLite database";
  } finally {
    db.close();
  }
}
