/**
 * @module driver
 * `createSqliteStorage`: core's `Storage` on one better-sqlite3 connection. Every method
 * runs synchronously inside and returns a promise, so the engine's async code works
 * unchanged; `apply` is one transaction. A file database's write-ahead log is copied back
 * by a worker thread (`checkpointer`), so no request waits for it.
 *
 * Several processes may share the file. Write transactions begin IMMEDIATE (the write lock
 * first, so a transaction never has to upgrade a stale read snapshot: no
 * SQLITE_BUSY_SNAPSHOT), SQLite waits up to `lockWaitMs` (100 ms) for the lock inside
 * one call, and a call that still meets SQLITE_BUSY is run again after a short pause, off
 * the event loop, for up to 10 s (`retryWhileBusy`); only then does the caller see 503
 * "database busy". No SQLite busy error reaches a client.
 */
import { notFound, retryWhileBusy, type ChangeSet, type OutboxJobUpdate, type Storage } from "@records-service/core";
import { createAccountCache } from "./account-cache.js";
import { isSqliteBusy } from "./busy.js";
import { createAccountStore } from "./accounts.js";
import { createChangeWatch } from "./change-watch.js";
import { createChangeHistoryReader } from "./change-history.js";
import { createChangeLog } from "./changes.js";
import { createLimitStore } from "./limits.js";
import { createCatalog } from "./catalog.js";
import { createFieldIndexes } from "./field-indexes.js";
import { startCheckpointer } from "./checkpointer.js";
import { openDatabase, type OpenOptions } from "./open.js";
import { createRecordPurger } from "./purge.js";
import { createRecordReader, listedRecords } from "./read.js";
import { createScanner } from "./scan.js";
import { backfillSearch, createSearcher, createSearchMerger } from "./search.js";
import { createOutboxStore } from "./outbox.js";
import { createGroupCommit } from "./group-commit.js";
import { createApplier } from "./write.js";
import { createTicketStockReader } from "./ticket-stock.js";

/** Options of `createSqliteStorage`: a file path or `":memory:"`, read-only mode, and the change watch's clock. */
export interface SqliteStorageOptions extends OpenOptions {
  /** The monotonic ms clock deciding when other connections' commits are looked for (tests). */
  now?: () => number;
  /**
   * How long one call waits inside SQLite for another process's write lock, blocking this
   * process, before it pauses and tries again. Default 100 ms. (Opening and migrating wait
   * `busyTimeoutMs`, 5 s by default, since processes starting together migrate one at a time.)
   */
  lockWaitMs?: number;
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
  db.$client.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.lockWaitMs ?? 100))}`);
  // A file in WAL mode: its log is copied back off the main thread (see checkpointer).
  const checkpointer = opts.path !== ":memory:" && !opts.readonly ? startCheckpointer(opts.path) : undefined;
  const catalog = createCatalog(db.$client);
  const accounts = createAccountStore(db);
  const watch = createChangeWatch(db.$client, { now: opts.now });
  const cached = createAccountCache(db.$client, accounts, { watch });
  const indexes = createFieldIndexes(db.$client, catalog, watch.generation);
  const reader = createRecordReader(db, catalog, watch.generation, indexes.source);
  const outbox = createOutboxStore(db.$client);
  const changeLog = createChangeLog(db.$client);
  const apply = createApplier(db, catalog, outbox, changeLog, indexes);
  // An attempt's outcome and its changes (the event's tag, a journal record) commit together;
  // `apply` nests as a savepoint.
  const finishJob = db.$client.transaction((id: string, token: string, update: OutboxJobUpdate, changes: ChangeSet | undefined) => {
    const done = outbox.finish(id, token, update);
    if (done === "missing") throw notFound("job not found", `no outbox job with id '${id}'`);
    if (done === "lost") return false;
    if (changes) apply(changes);
    return true;
  });
  // Change sets applied in the same turn share one commit (see group-commit).
  const grouped = createGroupCommit(db.$client, apply, () => catalog.forget());
  const purge = createRecordPurger(db, catalog);
  const ticketStock = createTicketStockReader(db.$client);
  // Records written before the search index existed get their rows now (once; cheap after).
  if (!opts.readonly) backfillSearch(db.$client);
  // Merging touches nothing any cache holds: it leaves this connection's change generation.
  const merger = createSearchMerger(db.$client);
  const mergeSearch = (limit: number) => watch.unwatched(() => merger(limit));
  const search = createSearcher(db.$client, catalog, opts.readonly ? undefined : mergeSearch);
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
    apiKeysOf: _async(accounts.apiKeysOf),
    replacePasswordHash: _async(accounts.replacePasswordHash),
    // Limit rows are cached nowhere: writing them (a throttled request, a failed login) keeps the caches.
    updateLimit: _async((key: string, now: number, fn: Parameters<typeof limits.update>[2]) => watch.unwatched(() => limits.update(key, now, fn))),
    listLimits: _async(limits.list),
    getSetting: _async(accounts.getSetting),
    initSetting: _async(accounts.initSetting),
    putSetting: _async(accounts.putSetting),
    getRecord: _async(reader.getRecord),
    getRecords: _async(reader.getRecords),
    getDisplayValues: _async(reader.getDisplayValues),
    listRecords: async (flock, type, query) => {
      const page = reader.listRecordRows(flock, type, query);
      return { ...page, records: listedRecords(page.records, flock, type) };
    },
    listReferencing: _async(reader.listReferencing),
    listFieldValues: _async(reader.listFieldValues),
    countFieldValues: _async(reader.countFieldValues),
    listTicketStock: _async(ticketStock),
    scanRecords: _async(createScanner(db, catalog, undefined, indexes.source)),
    summarizeTypes: _async(reader.summarizeTypes),
    searchRecords: _async(search),
    mergeSearchIndex: _async(mergeSearch),
    listFieldIndexes: _async(indexes.listFieldIndexes),
    setFieldIndex: _async(indexes.setFieldIndex),
    removeFieldIndex: _async(indexes.removeFieldIndex),
    stepFieldIndexes: _async(indexes.stepFieldIndexes),
    // A group that met a busy database runs again change set by change set, as every write does.
    apply: (changes: ChangeSet) =>
      grouped.apply(changes).catch((e: unknown) => (isSqliteBusy(e) ? retryWhileBusy(() => apply(changes), { isBusy: isSqliteBusy, afterBusy: true }) : Promise.reject(e))),
    deleteRecords: _async(purge),
    claimDueJobs: _async(outbox.claimDue),
    renewJobClaims: _async(outbox.renew),
    finishJob: _async((id: string, token: string, update: OutboxJobUpdate, changes?: ChangeSet) => {
      try {
        return finishJob.immediate(id, token, update, changes);
      } catch (e) {
        catalog.forget();
        throw e;
      }
    }),
    listJobs: _async(outbox.list),
    outboxStats: _async(outbox.stats),
    retryJob: _async(outbox.retry),
    resumeHeldJobs: _async(outbox.resumeHeld),
    getFile: _async(accounts.getFile),
    readChanges: _async(changeLog.read),
    readChangeHeads: _async(changeLog.heads),
    purgeChanges: _async(changeLog.purge),
    readChangeHistory: _async(createChangeHistoryReader(db.$client)),
    changeGeneration: watch.generation,
    syncChanges: _async(watch.sync),
    poolStats: () => undefined, // one connection, no pool
    close: async () => {
      if (db.$client.open) grouped.flush();
      await checkpointer?.stop();
      if (db.$client.open) db.$client.close();
    },
  };
}

export { isSqliteBusy };

// --- internal ---

/**
 * Wraps a synchronous function so that it returns a promise, rejects instead of throwing,
 * and runs again while the database is busy (see the module comment).
 */
function _async<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => Promise<R> {
  return (...args) => {
    try {
      return Promise.resolve(fn(...args));
    } catch (e) {
      if (!isSqliteBusy(e)) return Promise.reject(e);
      return retryWhileBusy(() => fn(...args), { isBusy: isSqliteBusy, afterBusy: true });
    }
  };
}
