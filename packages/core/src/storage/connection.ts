/**
 * @module storage/connection
 * The database handle itself: how fresh this process's view is (what caches check), the
 * state of its pool, and closing it.
 */

/** The state of a connection pool (adapters that keep one). */
export interface PoolStats {
  /** Connections open, idle or not. */
  total: number;
  /** Open connections no query is using. */
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** Freshness, pool state and release of the database. */
export interface Connection {
  /**
   * A number that moves whenever anything in the database may have changed: this adapter's
   * own writes at once, other processes' commits at the next `syncChanges` (and, between
   * calls of it, within a short bounded delay: the SQLite adapter's 25 ms, PostgreSQL's
   * notification). Lets callers cache derived answers (e.g. serialized responses).
   * Synchronous. Undefined when this Storage does not follow other processes' commits (a
   * PostgreSQL Storage opened without its change watch, as the CLI opens it): nothing may
   * be cached against it.
   */
  changeGeneration(): number | undefined;
  /**
   * Brings `changeGeneration` up to date with every commit acknowledged, by any process,
   * before the call: afterwards the generation has moved if anything changed since it was
   * last brought up to date. The server calls it once per request, before any cached
   * answer is looked up, so no read after an acknowledged write can meet a stale entry.
   * Resolves at once where the generation is exact already (one process: memory) or not
   * kept (undefined).
   */
  syncChanges(): Promise<void>;
  /** The connection pool's state, for metrics; undefined for an adapter without a pool (memory, SQLite). */
  poolStats(): PoolStats | undefined;
  /** Releases the database. Further calls may fail. */
  close(): Promise<void>;
}
