/**
 * @module open
 * Opens a better-sqlite3 database for the records service: pragmas, the SQL functions the
 * compiled filters call, and drizzle's migrations from `../drizzle/` (resolved from this
 * module, so it works from `src/` under vitest and from `dist/` once built).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { schema } from "./schema.js";
import { isSqliteBusy } from "./busy.js";
import { registerIndexFunctions } from "./field-indexes.js";
import { registerTextFunctions } from "./text-functions.js";
import { backfillTicketStock } from "./ticket-stock.js";
import { countWrites } from "./write-count.js";

/** Options of `openDatabase` and `createSqliteStorage`. */
export interface OpenOptions {
  /** A file path, or `":memory:"` for a private in-memory database (tests). */
  path: string;
  /** Opens without writing: no migrations, no pragmas that write; every write fails. */
  readonly?: boolean;
  /** How long a writer waits for another process's lock before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
}

/** The drizzle handle with the raw better-sqlite3 client beside it. */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** How long opening waits for another process's migrations (an index built over a large file takes a while). */
export const MIGRATION_WAIT_MS = 120_000;

/** WAL pages (4 KiB) at which a commit checkpoints, should the checkpointer thread fall behind. */
export const WAL_AUTOCHECKPOINT_PAGES = 50_000;

/** Where the generated SQL migrations live: `packages/sqlite/drizzle/`. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../drizzle/", import.meta.url));

/**
 * Opens (creating if needed) and migrates the database.
 *
 * @example
 * const db = openDatabase({ path: "./data/records.db" });
 * db.$client.pragma("journal_mode", { simple: true }); // "wal"
 */
export function openDatabase(opts: OpenOptions): Db {
  const memory = opts.path === ":memory:";
  if (!memory && !opts.readonly) mkdirSync(dirname(opts.path), { recursive: true });
  const client = new Database(opts.path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  // Before anything is prepared: the change watch trusts the count (write-count).
  countWrites(client);
  try {
    client.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
    client.pragma("foreign_keys = ON");
    if (!memory && !opts.readonly) {
      // WAL: readers never block the writer. NORMAL under WAL keeps every committed
      // transaction across a process crash; only an OS crash or power loss can lose the
      // last commits (never corrupt the file).
      // Turning a new file to WAL needs it alone, and SQLite answers "busy" at once rather
      // than waiting while another process opening it too does the same.
      _whileBusy(() => client.pragma("journal_mode = WAL"), opts.busyTimeoutMs ?? 5000);
      client.pragma("synchronous = NORMAL");
      // The storage's checkpointer thread copies the log back; this commit-time checkpoint
      // is only the fallback (CLI commands, a failed or outpaced worker), at ~200 MB of WAL
      // instead of SQLite's 4 MB. One create writes ~150 pages (600 KB) to the log, so at
      // 40 MB the fallback ran inside every ~70th create (a 30-100 ms stall, the writes'
      // p99), and a longer log writes each hot page back once per checkpoint instead of
      // once per few commits (docs/performance.md).
      client.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    }
    client.pragma("temp_store = MEMORY");
    client.pragma("cache_size = -131072"); // up to 128 MiB of page cache: index inserts stay in memory longer
    registerTextFunctions(client);
    registerIndexFunctions(client);
    const db = drizzle(client, { schema });
    // Another process may be migrating the same file (a large one for a while): wait for it.
    if (!opts.readonly) _whileBusy(() => _migrate(db), Math.max(opts.busyTimeoutMs ?? 5000, MIGRATION_WAIT_MS));
    return db;
  } catch (e) {
    client.close();
    throw e;
  }
}

// --- internal ---

/**
 * drizzle's migrations (its files and its `__drizzle_migrations` table, exactly as its
 * migrator keeps them), applied in one IMMEDIATE transaction. drizzle's own migrator reads
 * which migrations a file has before its (deferred) transaction begins, so a process that
 * opens a new file beside another one read "none", waited out the other's migrations and
 * ran them again ("table already exists", "database is locked"). Taking the write lock
 * first makes the next process wait (up to busy_timeout) and then find nothing to do. The
 * ticket stock a migration asks for is filled in the same transaction (ticket-stock.ts).
 */
function _migrate(db: Db): void {
  const client = db.$client;
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  client
    .transaction(() => {
      client.exec(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
      const last = client.prepare<[], { created_at: number | string }>(`SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`).get();
      const record = client.prepare(`INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)`);
      for (const m of migrations) {
        if (last !== undefined && Number(last.created_at) >= m.folderMillis) continue;
        for (const statement of m.sql) if (statement.trim()) client.exec(statement);
        record.run(m.hash, m.folderMillis);
      }
      // A migration that made a read model asks for it to be filled from the stored records.
      backfillTicketStock(client);
    })
    .immediate();
}

/** Runs `fn` again every 20 ms while the database is busy, for up to `timeoutMs` (blocking: opening is synchronous). */
function _whileBusy<T>(fn: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (!isSqliteBusy(e) || Date.now() >= deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}
