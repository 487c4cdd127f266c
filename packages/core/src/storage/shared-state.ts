/**
 * @module storage/shared-state
 * Small state that every process on one database must share: keyed limit rows with an
 * expiry (login failures and lockouts, throttle counters, the workers' leases, see
 * `lease.ts`) and named settings (the generated signing secret, the scheduler's last run).
 */

/**
 * A small keyed state row with an expiry (`updateLimit`): login failures and lockouts now,
 * throttle counters later. State every process on the database must share.
 */
export interface LimitRow {
  /** Opaque text the caller encodes (usually JSON); adapters store it as given. */
  value: string;
  /** Epoch milliseconds at and after which the row counts as absent and may be purged. */
  expiresAt: number;
}

/** A limit row with its key (`listLimits`). */
export interface LimitEntry extends LimitRow {
  key: string;
}

/**
 * What `updateLimit`'s function returns: the new row, `null` to delete the row, or
 * `undefined` to leave it as it is (a read).
 */
export type LimitChange = LimitRow | null | undefined;

/** Limit rows and settings. */
export interface SharedState {
  /**
   * Atomically reads and rewrites the row `key`. `fn` gets its current value (undefined when
   * there is none or its `expiresAt` is at or before `now`) and returns the change (see
   * `LimitChange`). `fn` must be pure and synchronous: the adapter calls it exactly once,
   * inside one transaction that holds the row against every other caller on the database
   * (SQLite: an immediate transaction; PostgreSQL: insert the key if missing with an expired
   * placeholder, then `SELECT ... FOR UPDATE`), so concurrent updates of one key from any
   * number of processes apply one after the other. If the transaction fails, the call
   * rejects and nothing changed. Resolves with the value stored afterwards (undefined: none).
   * Keys are printable text of at most 200 characters. Expired rows are purged by expiry
   * time as the adapter goes (bounded work per call), never by count: state cannot be
   * evicted by filling the table.
   */
  updateLimit(key: string, now: number, fn: (current: string | undefined) => LimitChange): Promise<string | undefined>;
  /**
   * The live limit rows (`expiresAt` after `now`) whose key starts with `prefix`, ordered by
   * key, at most `limit` (default 100): what operators see of shared state such as the
   * workers' leases (`listLeases`).
   */
  listLimits(prefix: string, now: number, limit?: number): Promise<LimitEntry[]>;
  /** The setting's value, or undefined when none was stored. */
  getSetting(name: string): Promise<string | undefined>;
  /** Stores `value` unless a value exists; returns the value now stored (first writer wins). */
  initSetting(name: string, value: string): Promise<string>;
  /** Stores `value`, replacing any value (e.g. the scheduler's last run per flock). */
  putSetting(name: string, value: string): Promise<void>;
}
