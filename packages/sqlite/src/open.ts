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
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { schema } from "./schema.js";
import { registerTextFunctions } from "./text-functions.js";

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
  try {
    client.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
    client.pragma("foreign_keys = ON");
    if (!memory && !opts.readonly) {
      // WAL: readers never block the writer. NORMAL under WAL keeps every committed
      // transaction across a process crash; only an OS crash or power loss can lose the
      // last commits (never corrupt the file).
      client.pragma("journal_mode = WAL");
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
    const db = drizzle(client, { schema });
    if (!opts.readonly) migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return db;
  } catch (e) {
    client.close();
    throw e;
  }
}
