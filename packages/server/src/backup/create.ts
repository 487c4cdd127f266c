/**
 * @module backup/create
 * An online backup of a SQLite database file, safe while servers write to it:
 *
 * 1. One read transaction on the source fixes a snapshot (WAL: writers go on meanwhile);
 *    the records per flock are counted in it.
 * 2. SQLite's backup API copies the pages of that snapshot (better-sqlite3 `backup()`, in
 *    steps between which the event loop runs), into a hidden `.partial` file beside the
 *    backups.
 * 3. The copy is made self-contained (rollback journal, no -wal beside it), checked with
 *    `PRAGMA integrity_check`, and its counts compared with the snapshot's.
 * 4. Only then is it synced and renamed to its final name (UTC time of the snapshot), and
 *    backups beyond the newest `keep` are removed.
 *
 * Why the backup API rather than `VACUUM INTO`: both only read the source under WAL (no
 * write lock), but `VACUUM INTO` cannot run inside a transaction, so its copy cannot be
 * counted against the source at the same snapshot; it rebuilds every index (about a third
 * longer holding its snapshot, see bench/backup-lock.ts) and blocks its thread throughout.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { freeBackupName, pruneBackups } from "./names.js";
import { BackupVerifyError, checkOpenDatabase, recordCounts, type FlockCounts } from "./verify.js";

/** Pages (4 KiB) copied per step; between steps a serving process answers requests. */
const BACKUP_STEP_PAGES = 4096;

/** Options of `createBackup`. */
export interface BackupOptions {
  /** The SQLite file to back up (it must exist). */
  db: string;
  /** The folder the backups go to (created if missing). */
  dir: string;
  /** How many backups to keep in `dir`, this one included. */
  keep: number;
  /** The time the backup is named by; default now. */
  now?: () => Date;
  /** Aborts the copy (e.g. the lease was lost); the partial file is removed. */
  signal?: AbortSignal;
}

/** What a backup made. */
export interface BackupReport {
  /** The backup's path. */
  file: string;
  bytes: number;
  /** Records per flock, equal in the source's snapshot and in the copy. */
  counts: FlockCounts;
  /** Older backups removed to keep `keep`. */
  removed: string[];
}

/** The source file does not exist. */
class BackupSourceError extends Error {
  override readonly name = "BackupSourceError";
}

/**
 * Backs up `db` into `dir`, verified; throws `BackupSourceError` or `BackupVerifyError`.
 *
 * @example
 * const r = await createBackup({ db: "./data/records.db", dir: "./backups", keep: 7 });
 * r.file // "./backups/records-2026-11-28T05-00-00Z.db"
 */
export async function createBackup(opts: BackupOptions): Promise<BackupReport> {
  let source: Database.Database;
  try {
    source = new Database(opts.db, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new BackupSourceError(`cannot open ${opts.db}: ${(e as Error).message} (check --db)`);
  }
  mkdirSync(opts.dir, { recursive: true });
  const at = (opts.now ?? (() => new Date()))();
  const name = freeBackupName(opts.dir, at);
  const partial = join(opts.dir, `.${name}.partial`);
  const file = join(opts.dir, name);
  try {
    source.pragma("busy_timeout = 5000");
    source.exec("BEGIN");
    let counts: FlockCounts;
    try {
      counts = _checkSource(source, opts.db);
      rmSync(partial, { force: true });
      await source.backup(partial, {
        progress: () => {
          if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error("backup aborted");
          return BACKUP_STEP_PAGES;
        },
      });
    } finally {
      source.exec("COMMIT");
    }
    _verifyCopy(partial, counts);
    _sync(partial);
    renameSync(partial, file);
    _syncDir(opts.dir);
    return { file, bytes: statSync(file).size, counts, removed: pruneBackups(opts.dir, opts.keep) };
  } catch (e) {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
    throw e;
  } finally {
    source.close();
  }
}

// --- internal ---

/** The source's counts at its snapshot (a source that is not a records database is refused). */
function _checkSource(source: Database.Database, path: string): FlockCounts {
  const tables = source.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('flocks', 'collections', 'records')").get();
  if (tables?.n !== 3) throw new BackupSourceError(`${path} is not a Records Service database`);
  return recordCounts(source);
}

// --- internal ---

/** The copy, made a single file (rollback journal), must check out and hold the snapshot's counts. */
function _verifyCopy(path: string, expected: FlockCounts): void {
  const copy = new Database(path, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
    const counts = checkOpenDatabase(copy, path);
    const want = JSON.stringify(expected);
    const got = JSON.stringify(counts);
    if (got !== want) throw new BackupVerifyError(`the copy's records per flock ${got} differ from the source's ${want}`);
  } finally {
    copy.close();
  }
}

function _sync(path: string, flags = "r+"): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The rename itself is durable once the folder is synced (not possible on every platform). */
function _syncDir(dir: string): void {
  try {
    _sync(dir, "r");
  } catch {
    // e.g. Windows cannot open a folder for syncing; the file itself is synced
  }
}
