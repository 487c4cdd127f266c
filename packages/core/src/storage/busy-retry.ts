/**
 * @module storage/busy-retry
 * Contention is never a client's problem: a write that meets another writer's lock
 * (SQLite's SQLITE_BUSY, PostgreSQL's deadlock or serialization failure) is run again after
 * a short randomized back-off, for up to `boundMs` (10 s) in all. Only past the bound does
 * the caller see an error, and then "database busy" (`unavailable`, 503: retry later),
 * never the driver's. Both SQL adapters use it, each with its own test of "busy".
 */
import { RecordsError } from "../errors.js";

/** Options of `retryWhileBusy`. */
export interface BusyRetryOptions {
  /** True for an error that means "another writer holds the lock: try again". */
  isBusy(e: unknown): boolean;
  /** The longest time spent retrying, in ms. Default `BUSY_RETRY_BOUND_MS`. */
  boundMs?: number;
  /** A monotonic ms clock (tests). Default `performance.now`. */
  now?: () => number;
  /** Waits `ms` (tests). Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The caller's own first attempt met a busy database already, so the first run here is a
   * retry too (counted by `busyRetryCount`). Default false.
   */
  afterBusy?: boolean;
}

/** How long a write keeps retrying on a busy database before it answers 503. */
export const BUSY_RETRY_BOUND_MS = 10_000;

/**
 * The error past the bound: 503 `database busy`.
 *
 * @example
 * throw databaseBusy();
 */
function databaseBusy(): RecordsError {
  return new RecordsError("unavailable", "database busy", "the database is busy with other writers; retry in a moment");
}

/**
 * How many times this process has run a write again because the database was busy (both
 * SQL adapters, since start): a metric, so it is this process's own count by design.
 *
 * @example
 * busyRetryCount(); // 0 on a quiet database
 */
export function busyRetryCount(): number {
  return _retries;
}

/**
 * Runs `fn`, again while it fails with a busy error, until it succeeds, fails otherwise,
 * or the bound has passed.
 *
 * @example
 * await retryWhileBusy(() => apply(changes), { isBusy: (e) => String((e as { code?: unknown }).code).startsWith("SQLITE_BUSY") });
 */
export async function retryWhileBusy<T>(fn: () => T | Promise<T>, opts: BusyRetryOptions): Promise<T> {
  const now = opts.now ?? (() => performance.now());
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const bound = opts.boundMs ?? BUSY_RETRY_BOUND_MS;
  let started: number | undefined;
  if (opts.afterBusy) _retries += 1;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!opts.isBusy(e)) throw e;
      started ??= now();
      const waited = now() - started;
      if (waited >= bound) throw databaseBusy();
      _retries += 1;
      // Randomized so that writers that collided do not collide again in step.
      const cap = Math.min(_MAX_PAUSE_MS, _FIRST_PAUSE_MS * 2 ** attempt);
      await sleep(Math.min(bound - waited, cap / 2 + Math.random() * (cap / 2)));
    }
  }
}

// --- internal ---

const _FIRST_PAUSE_MS = 2;
let _retries = 0;
const _MAX_PAUSE_MS = 100;
