/**
 * @module driver
 * `createPostgresStorage`: core's `Storage` on a node-postgres pool. Opening migrates the
 * database (under an advisory lock); every change set is one transaction on one pooled
 * connection; reads run on any free connection. Driver failures become `RecordsError`s:
 * "database unavailable" (503) for a lost or refused connection, `conflict` for a lost race.
 */
import { notFound, type ChangeSet, type OutboxJobUpdate, type Storage } from "@records-service/core";
import type pg from "pg";
import { createAccountCache } from "./account-cache.js";
import { createAccountStore } from "./accounts.js";
import { createCatalog } from "./catalog.js";
import { createFieldIndexes } from "./field-indexes.js";
import { createChangeWatch, readMarks, type ChangeWatch } from "./change-watch.js";
import { readChangeHistory } from "./change-history.js";
import { purgeChanges, readChangeHeads, readChanges } from "./changes.js";
import { openPool, type PostgresPoolOptions, type PostgresTarget } from "./connect.js";
import { toStorageError } from "./errors.js";
import { transaction } from "./exec.js";
import { createLimitStore } from "./limits.js";
import { migrateDatabase } from "./migrate.js";
import { claimDueJobs, finishJobRow, listJobs, outboxStats, renewJobClaims, resumeHeldJobs, retryJob } from "./outbox.js";
import { purgeRecords } from "./purge.js";
import { backfillSearch, createSearcher } from "./search.js";
import { createRecordReader } from "./read.js";
import { createScanner } from "./scan.js";
import { applyChanges } from "./write.js";
import { readTicketStock } from "./ticket-stock.js";

/** Options of `createPostgresStorage`: the pool's settings (with `{ url }`), migrating, watching. */
export interface PostgresStorageOptions extends PostgresPoolOptions {
  /** Apply pending migrations on open (default true). Without, a database not yet migrated fails on use. */
  migrate?: boolean;
  /**
   * Listen for other processes' commits (one connection of its own) so that account
   * lookups and `changeGeneration` callers can cache (default true). Without, nothing is cached.
   */
  watchChanges?: boolean;
}

/**
 * Connects, migrates and returns a `Storage` over the database. With `{ pool }` the caller
 * owns the pool (`close()` leaves it open); with `{ url }` the storage makes and ends its own.
 * An unreachable server rejects with `RecordsError("unavailable")` naming host, port and reason.
 *
 * @example
 * const storage = await createPostgresStorage({ url: "postgres://app@127.0.0.1:5432/records" }, { poolSize: 20 });
 * await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
 */
export async function createPostgresStorage(target: PostgresTarget, opts: PostgresStorageOptions = {}): Promise<Storage> {
  const { pool, owned, where } = openPool(target, opts);
  try {
    if (opts.migrate ?? true) {
      await migrateDatabase(pool);
      // Records written before the search index existed get their rows (cheap once done).
      await backfillSearch(pool);
    }
  } catch (e) {
    if (owned) await pool.end().catch(() => {});
    throw toStorageError(e, where);
  }
  const watch =
    (opts.watchChanges ?? true) ? createChangeWatch(pool.options as pg.ClientConfig, { marks: () => readMarks(pool) }) : undefined;
  return _storage(pool, owned, where, watch);
}

// --- internal ---

function _storage(pool: pg.Pool, owned: boolean, where: string, watch: ChangeWatch | undefined): Storage {
  const catalog = createCatalog();
  const accounts = createAccountStore(pool);
  const limits = createLimitStore(pool);
  const lookups = watch ? createAccountCache(accounts, watch.accountGeneration) : accounts;
  const indexes = createFieldIndexes(pool, catalog, watch?.generation);
  const reader = createRecordReader(pool, catalog, watch?.generation, indexes.sources);
  const scan = createScanner(pool, catalog, undefined, indexes.sources);
  let closed = false;

  /** Runs `fn` in one transaction with the catalog's view; new ids are cached once committed. */
  const write = async <T>(fn: (c: pg.PoolClient, ids: ReturnType<typeof catalog.forWrite>) => Promise<T>): Promise<T> => {
    let ids: ReturnType<typeof catalog.forWrite> | undefined;
    const out = await transaction(pool, (c) => {
      ids = catalog.forWrite(c);
      return fn(c, ids);
    });
    ids?.publish();
    return out;
  };

  const storage: Storage = {
    createFlock: accounts.createFlock,
    getFlock: lookups.getFlock,
    listFlocks: accounts.listFlocks,
    renameFlock: accounts.renameFlock,
    putUser: accounts.putUser,
    getUser: lookups.getUser,
    putApiKey: accounts.putApiKey,
    getApiKey: lookups.getApiKey,
    deleteApiKey: accounts.deleteApiKey,
    deleteApiKeysOf: accounts.deleteApiKeysOf,
    apiKeysOf: accounts.apiKeysOf,
    replacePasswordHash: accounts.replacePasswordHash,
    updateLimit: limits.update,
    listLimits: limits.list,
    getSetting: accounts.getSetting,
    initSetting: accounts.initSetting,
    putSetting: accounts.putSetting,
    getRecord: reader.getRecord,
    getRecords: reader.getRecords,
    getDisplayValues: reader.getDisplayValues,
    listRecords: reader.listRecords,
    listReferencing: reader.listReferencing,
    listFieldValues: reader.listFieldValues,
    countFieldValues: reader.countFieldValues,
    listTicketStock: (flock, bookings) => readTicketStock(pool, flock, bookings),
    scanRecords: scan,
    summarizeTypes: reader.summarizeTypes,
    searchRecords: createSearcher(pool, catalog),
    // The index is kept in each write's transaction: GIN's own pending list batches its
    // entries (fastupdate; docs/performance.md), so nothing is ever queued here.
    mergeSearchIndex: async () => 0,
    listFieldIndexes: indexes.listFieldIndexes,
    setFieldIndex: indexes.setFieldIndex,
    removeFieldIndex: indexes.removeFieldIndex,
    stepFieldIndexes: indexes.stepFieldIndexes,
    apply: (changes: ChangeSet) => write((c, ids) => applyChanges(c, ids, changes)),
    deleteRecords: (flock, type, ids) => write((c) => purgeRecords(c, catalog, flock, type, ids)),
    claimDueJobs: (now, limit, claim) => claimDueJobs(pool, now, limit, claim),
    renewJobClaims: (tokens, until) => renewJobClaims(pool, tokens, until),
    // An attempt's outcome and its changes (the event's tag, a journal record) commit together.
    finishJob: (id: string, token: string, update: OutboxJobUpdate, changes?: ChangeSet) =>
      write(async (c, ids) => {
        const done = await finishJobRow(c, id, token, update);
        if (done === "missing") throw notFound("job not found", `no outbox job with id '${id}'`);
        if (done === "lost") return false;
        if (changes) await applyChanges(c, ids, changes);
        return true;
      }),
    listJobs: (filter) => listJobs(pool, filter),
    outboxStats: (now) => outboxStats(pool, now),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    // Without the watch (the CLI) other processes' commits are not followed: no generation
    // to cache against, and nothing to bring up to date.
    changeGeneration: watch ? watch.generation : () => undefined,
    syncChanges: watch ? watch.sync : async () => {},
    retryJob: (flock, id, now) => retryJob(pool, flock, id, now),
    resumeHeldJobs: (flock, trigger, action, now) => resumeHeldJobs(pool, flock, trigger, action, now),
    getFile: accounts.getFile,
    readChanges: (flock, after, limit, types) => readChanges(pool, flock, after, limit, types),
    readChangeHeads: (flocks) => readChangeHeads(pool, flocks),
    purgeChanges: (before, limit) => purgeChanges(pool, before, limit),
    readChangeHistory: (flock, query) => readChangeHistory(pool, flock, query),
    async close() {
      if (closed) return;
      closed = true;
      await watch?.close();
      if (owned) await pool.end();
    },
  };
  return _guarded(storage, where, watch);
}

/**
 * The methods that write: the change generation moves when each starts and when it ends.
 * Not `updateLimit`: nothing caches limit rows (and a failed login must not empty the caches).
 */
const _WRITES = new Set([
  "createFlock",
  "renameFlock",
  "putUser",
  "putApiKey",
  "deleteApiKey",
  "deleteApiKeysOf",
  "replacePasswordHash",
  "initSetting",
  "putSetting",
  "apply",
  "deleteRecords",
  "finishJob",
  "purgeChanges",
  "setFieldIndex",
  "removeFieldIndex",
  "stepFieldIndexes",
]);

/** The writes of `_WRITES` to flocks, users or API keys: they move the account generation too. */
const _ACCOUNT_WRITES = new Set(["createFlock", "renameFlock", "putUser", "putApiKey", "deleteApiKey", "deleteApiKeysOf", "replacePasswordHash"]);

/**
 * Every method of `storage`, with driver errors turned into storage errors (see errors.ts)
 * and writes moving the change generation (before: a read racing the write is not cached;
 * after: what was cached before it is dropped).
 */
function _guarded(storage: Storage, where: string, watch: ChangeWatch | undefined): Storage {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(storage)) {
    // Synchronous members, read from memory: nothing to guard.
    if (name === "changeGeneration" || name === "poolStats") {
      out[name] = fn;
      continue;
    }
    const writes = watch !== undefined && _WRITES.has(name);
    const accounts = _ACCOUNT_WRITES.has(name);
    out[name] = async (...args: unknown[]) => {
      if (writes) watch.touch(accounts);
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (e) {
        throw toStorageError(e, where);
      } finally {
        if (writes) watch.touch(accounts);
      }
    };
  }
  return out as unknown as Storage;
}
