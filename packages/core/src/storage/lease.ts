/**
 * @module storage/lease
 * Named leases shared by every process on one database, for work that one process at a
 * time must do (the scheduler's run, a task's chunks). A lease is a limit row (`lease:` +
 * name, holding its owner until an expiry), so it rides on `Storage.updateLimit`, which
 * every adapter already makes atomic across processes (SQLite: an immediate transaction;
 * PostgreSQL: a row lock). A holder renews it while it works; one that dies stops renewing
 * and the lease lapses after its ttl, so another process takes the work over.
 */
import type { Clock } from "../time.js";
import type { Storage } from "./storage.js";
import type { SharedState } from "./shared-state.js";

/** Key prefix of lease rows among the limit rows. */
export const LEASE_KEY_PREFIX = "lease:";
/** Rows `listLimits` returns when no limit is given. */
export const DEFAULT_LIMIT_LIST = 100;
/** Longest lease name (the limit key holds the prefix too, at most 200 characters). */
const MAX_LEASE_NAME = 190;

/** Options of `withLease`. */
export interface LeaseOptions {
  /** How long the lease lives without renewal; it is renewed every third of it. */
  ttlMs: number;
  /** The time leases are counted in (every process on a database should agree on it). */
  clock: Clock;
  /** Who holds it; default a new random id per call (shown by `listLeases`). */
  owner?: string;
  /**
   * Whether the holder `owner` is known to be gone (a process on this machine that no
   * longer runs): its lease is taken over at once instead of after its lapse. Must be
   * synchronous and quick; default: never known.
   */
  isGone?: (owner: string) => boolean;
}

/** What `withLease` did: `value` is `fn`'s result when the lease was acquired. */
export type LeaseResult<T> = { acquired: true; value: T } | { acquired: false };

/** A live lease, for operators. */
export interface LeaseInfo {
  name: string;
  owner: string;
  /** Epoch milliseconds at which it lapses unless renewed. */
  expiresAt: number;
}

/**
 * Runs `fn` while holding lease `name`, or does nothing when another owner holds it. `fn`
 * gets a signal that aborts if the lease is lost (a renewal found another owner, or could
 * not be written): it should stop at its next safe point, since another process may be
 * doing the same work. The lease is released when `fn` settles.
 *
 * @example
 * const r = await withLease(storage, "scheduler", { ttlMs: 60_000, clock }, (lost) => runOnce(lost));
 * if (!r.acquired) return; // another process runs it
 */
export async function withLease<T>(
  storage: Storage,
  name: string,
  opts: LeaseOptions,
  fn: (lost: AbortSignal) => Promise<T>,
): Promise<LeaseResult<T>> {
  if (name.length === 0 || name.length > MAX_LEASE_NAME) throw new RangeError(`lease name must be 1 to ${MAX_LEASE_NAME} characters`);
  const ttl = Math.max(1, Math.floor(opts.ttlMs));
  const owner = opts.owner ?? newLeaseOwner();
  const key = LEASE_KEY_PREFIX + name;
  const take = async () => {
    const now = opts.clock.now().getTime();
    const held = await storage.updateLimit(key, now, (cur) =>
      cur === undefined || cur === owner || opts.isGone?.(cur) ? { value: owner, expiresAt: now + ttl } : undefined,
    );
    return held === owner;
  };
  if (!(await take())) return { acquired: false };

  const lost = new AbortController();
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (renewing || lost.signal.aborted) return;
    renewing = _renew(storage, key, owner, ttl, opts.clock)
      .then((ok) => {
        if (!ok) lost.abort(new Error(`lease ${name} was lost`));
      })
      .catch((e: unknown) => lost.abort(e))
      .finally(() => {
        renewing = undefined;
      });
  }, Math.max(1, Math.floor(ttl / 3)));
  timer.unref?.();
  try {
    return { acquired: true, value: await fn(lost.signal) };
  } finally {
    clearInterval(timer);
    await renewing;
    const now = opts.clock.now().getTime();
    // Released only while still ours; a failure here lets it lapse on its own.
    await storage.updateLimit(key, now, (cur) => (cur === owner ? null : undefined)).catch(() => undefined);
  }
}

/**
 * The live leases, by name.
 *
 * @example
 * await listLeases(storage, Date.now()); // [{ name: "scheduler", owner: "…", expiresAt: 1767… }]
 */
export async function listLeases(storage: Pick<SharedState, "listLimits">, now: number, limit = DEFAULT_LIMIT_LIST): Promise<LeaseInfo[]> {
  const rows = await storage.listLimits(LEASE_KEY_PREFIX, now, limit);
  return rows.map((r) => ({ name: r.key.slice(LEASE_KEY_PREFIX.length), owner: r.value, expiresAt: r.expiresAt }));
}

/** A random owner or claim token (Web Crypto, as ids use): 24 hex digits. */
export function newLeaseOwner(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- internal ---

/** Extends the lease while it is still `owner`'s; false when it is not. */
async function _renew(storage: Storage, key: string, owner: string, ttl: number, clock: Clock): Promise<boolean> {
  const now = clock.now().getTime();
  const held = await storage.updateLimit(key, now, (cur) => (cur === owner ? { value: owner, expiresAt: now + ttl } : undefined));
  return held === owner;
}
