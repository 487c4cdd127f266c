/**
 * @module driver
 * `createSqliteStorage`: core's `Storage` on one better-sqlite3 connection. Every method
 * runs synchronously inside and returns a settled promise, so the engine's async code
 * works unchanged; `apply` is one transaction. A file database's write-ahead log is copied
 * back by a worker thread (`checkpointer`), so no request waits for it.
 */
import { notFound, type ChangeSet, type OutboxJobUpdate, type Storage } from "@records-service/core";
import { createAccountCache } from "./account-cache.js";
import { createAccountStore } from "./accounts.js";
import { createChangeWatch } from "./change-watch.js";
import { createLimitStore } from "./limits.js";
import { createCatalog } from "./catalog.js";
import { startCheckpointer } from "./checkpointer.js";
import { openDatabase, type OpenOptions } from "./open.js";
import { createRecordPurger } from "./purge.js";
import { createRecordReader, parseRows } from "./read.js";
import { createScanner } from "./scan.js";
import { backfillSearch, createSearcher } from "./search.js";
import { createOutboxStore } from "./outbox.js";
import { createApplier } from "./write.js";

/** Options of `createSqliteStorage`: a file path or `":memory:"`, read-only mode, and the change watch's clock. */
export interface SqliteStorageOptions extends OpenOptions {
  /** The monotonic ms clock deciding when other connections' commits are looked for (tests). */
  now?: () => number;
}

/**
 * Opens (creating and migrating as needed) the database and returns a `Storage` over it.
 *
 * @example
 * const storage = createSqliteStorage({ path: "./data/records.db" });
 * await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
 */
export function createSqliteStorage(opts: SqliteStorageOptions): Storage {
  const db = openDatabase(opts);
  // A file in WAL mode: its log is copied back off the main thread (see checkpointer).
  const checkpointer = opts.path !== ":memory:" && !opts.readonly ? startCheckpointer(opts.path) : undefined;
  const catalog = createCatalog(db.$client);
  const accounts = createAccountStore(db);
  const watch = createChangeWatch(db.$client, { now: opts.now });
  const cached = createAccountCache(db.$client, accounts, { watch });
  const reader = createRecordReader(db, catalog);
  const outbox = createOutboxStore(db.$client);
  const apply = createApplier(db, catalog, outbox);
  // An attempt's outcome and its changes (the event's tag, a journal record) commit together;
  // `apply` nests as a savepoint.
  const finishJob = db.$client.transaction((id: string, update: OutboxJobUpdate, changes: ChangeSet | undefined) => {
    if (!outbox.finish(id, update)) throw notFound("job not found", `no outbox job with id '${id}'`);
    if (changes) apply(changes);
  });
  const purge = createRecordPurger(db, catalog);
  // Records written before the search index existed get their rows now (once; cheap after).
  if (!opts.readonly) backfillSearch(db.$client);
  const search = createSearcher(db.$client, catalog);
  const limits = createLimitStore(db.$client);

  return {
    createFlock: _async(accounts.createFlock),
    getFlock: _async(cached.getFlock),
    listFlocks: _async(accounts.listFlocks),
    renameFlock: _async(accounts.renameFlock),
    putUser: _async(accounts.putUser),
    getUser: _async(cached.getUser),
    putApiKey: _async(accounts.putApiKey),
    getApiKey: _async(cached.getApiKey),
    deleteApiKey: _async(accounts.deleteApiKey),
    deleteApiKeysOf: _async(accounts.deleteApiKeysOf),
    replacePasswordHash: _async(accounts.replacePasswordHash),
    updateLimit: _async(limits.update),
    getSetting: _async(accounts.getSetting),
    initSetting: _async(accounts.initSetting),
    putSetting: _async(accounts.putSetting),
    getRecord: _async(reader.getRecord),
    getRecords: _async(reader.getRecords),
    getDisplayValues: _async(reader.getDisplayValues),
    listRecords: async (flock, type, query) => {
      const page = reader.listRecordRows(flock, type, query);
      return { total: page.total, records: await parseRows(page.records, flock, type) };
    },
    listReferencing: _async(reader.listReferencing),
    scanRecords: _async(createScanner(db, catalog)),
    summarizeTypes: _async(reader.summarizeTypes),
    searchRecords: _async(search),
    apply: _async(apply),
    deleteRecords: _async(purge),
    claimDueJobs: _async(outbox.claimDue),
    finishJob: _async((id: string, update: OutboxJobUpdate, changes?: ChangeSet) => {
      try {
        finishJob(id, update, changes);
      } catch (e) {
        catalog.forget();
        throw e;
      }
    }),
    listJobs: _async(outbox.list),
    getFile: _async(accounts.getFile),
    changeGeneration: watch.generation,
    close: async () => {
      await checkpointer?.stop();
      if (db.$client.open) db.$client.close();
    },
  };
}

// --- internal ---

/** Wraps a synchronous function so that it returns a promise and rejects instead of throwing. */
function _async<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => Promise<R> {
  return (...args) => {
    try {
      return Promise.resolve(fn(...args));
    } catch (e) {
      return Promise.reject(e);
    }
  };
}
