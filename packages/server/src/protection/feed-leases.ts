/**
 * @module protection/feed-leases
 * The caps on open change feeds (`changes.maxFeedsPerKey`, `changes.maxFeedsPerFlock`),
 * counted in the database so they hold across every process on it. Each open stream holds
 * a lease in two limit rows (`Storage.updateLimit`, atomic): one per API key, one per flock,
 * each a small JSON map of lease id to expiry. A lease is taken only while its row has
 * fewer live leases than the cap, renewed by its process every `renewMs` (one update per
 * row and process, however many streams it holds there), and removed when the stream
 * ends; a killed process's leases lapse `ttlMs` after their last renewal. Time here is the
 * machine's (a manual service clock must not keep a dead process's feeds counted).
 */
import { randomBytes } from "node:crypto";
import { RecordsError, type SharedState } from "@records-service/core";

/** Options of `createFeedLeases`. */
export interface FeedLeasesOptions {
  /** The limit rows the leases are counted in. */
  storage: Pick<SharedState, "updateLimit">;
  maxPerKey: number;
  maxPerFlock: number;
  /** How long a lease counts without renewal (ms); routes/changes makes it four heartbeats. */
  ttlMs: number;
  /** How often this process renews its leases (ms): routes/changes renews at every heartbeat. */
  renewMs: number;
  /** Epoch ms (tests inject it). Default `Date.now`. */
  now?: () => number;
  /** Calls `fn` every `ms` until the returned function is called (tests inject it). */
  every?: (ms: number, fn: () => void) => () => void;
}

/** One open stream's hold on the caps. */
interface FeedLease {
  /** Called when a renewal found the lease gone and the cap full (the stream must end). */
  onLost(fn: () => void): void;
  /** Gives the lease back (idempotent; never throws). */
  release(): Promise<void>;
}

/** The caps of one process. */
export interface FeedLeases {
  /**
   * Takes a lease for a stream of `flock` opened with the key whose hash is `keyHash`.
   * Throws `RecordsError("rate_limited")` naming the cap when either is full.
   */
  acquire(keyHash: string, flock: string): Promise<FeedLease>;
  /** Renews every lease this process holds now (the timer calls it; tests too). */
  renew(): Promise<void>;
  /** Leases this process holds. */
  held(): number;
}

/**
 * The caps over `opts.storage`.
 *
 * @example
 * const leases = createFeedLeases({ storage, maxPerKey: 8, maxPerFlock: 64, ttlMs: 60_000, renewMs: 15_000 });
 * const lease = await leases.acquire(hashToken(key), "demo"); // 429 past a cap
 * await lease.release();
 */
export function createFeedLeases(opts: FeedLeasesOptions): FeedLeases {
  const { storage } = opts;
  const { ttlMs, renewMs } = opts;
  const now = opts.now ?? Date.now;
  const every = opts.every ?? _every;
  /** This process's leases by row key: lease id -> its lost callbacks. */
  const rows = new Map<string, { max: number; leases: Map<string, _Held> }>();
  let stopTimer: (() => void) | undefined;
  let count = 0;

  const take = async (row: string, max: number, id: string): Promise<boolean> => {
    let taken = false;
    const t = now();
    await storage.updateLimit(row, t, (value) => {
      const live = _live(value, t);
      taken = Object.keys(live).length < max;
      if (taken) live[id] = t + ttlMs;
      return _row(live, t);
    });
    return taken;
  };
  const drop = async (row: string, ids: readonly string[]): Promise<void> => {
    const t = now();
    await storage.updateLimit(row, t, (value) => {
      const live = _live(value, t);
      for (const id of ids) delete live[id];
      return _row(live, t);
    });
  };
  const hold = (row: string, max: number, id: string, held: _Held) => {
    let r = rows.get(row);
    if (!r) rows.set(row, (r = { max, leases: new Map() }));
    r.leases.set(id, held);
    stopTimer ??= every(renewMs, () => void api.renew().catch(() => {}));
  };
  const unhold = (row: string, id: string) => {
    const r = rows.get(row);
    r?.leases.delete(id);
    if (r && r.leases.size === 0) rows.delete(row);
    if (rows.size === 0) {
      stopTimer?.();
      stopTimer = undefined;
    }
  };

  const api: FeedLeases = {
    async acquire(keyHash, flock) {
      const id = randomBytes(9).toString("base64url");
      const keyRow = `feeds:key:${keyHash}`;
      const flockRow = `feeds:flock:${flock}`;
      if (!(await take(keyRow, opts.maxPerKey, id))) {
        throw new RecordsError(
          "rate_limited",
          "too many change feeds",
          `this API key has ${opts.maxPerKey} change feeds open (changes.maxFeedsPerKey); close one, or wait for one to end`,
        );
      }
      if (!(await take(flockRow, opts.maxPerFlock, id).catch(async (e: unknown) => (await drop(keyRow, [id]).catch(() => {}), Promise.reject(e))))) {
        await drop(keyRow, [id]).catch(() => {});
        throw new RecordsError(
          "rate_limited",
          "too many change feeds",
          `flock '${flock}' has ${opts.maxPerFlock} change feeds open (changes.maxFeedsPerFlock); close one, or wait for one to end`,
        );
      }
      const held: _Held = { lost: [] };
      count += 1;
      hold(keyRow, opts.maxPerKey, id, held);
      hold(flockRow, opts.maxPerFlock, id, held);
      let released = false;
      return {
        onLost: (fn) => void held.lost.push(fn),
        async release() {
          if (released) return;
          released = true;
          count -= 1;
          unhold(keyRow, id);
          unhold(flockRow, id);
          await Promise.all([drop(keyRow, [id]), drop(flockRow, [id])]).catch(() => {});
        },
      };
    },
    async renew() {
      const t = now();
      for (const [row, r] of [...rows]) {
        const lost: string[] = [];
        await storage.updateLimit(row, t, (value) => {
          const live = _live(value, t);
          lost.length = 0;
          for (const id of r.leases.keys()) {
            // A lease that lapsed (this process was stalled past the ttl) comes back only if the cap has room.
            if (id in live || Object.keys(live).length < r.max) live[id] = t + ttlMs;
            else lost.push(id);
          }
          return _row(live, t);
        });
        for (const id of lost) r.leases.get(id)?.lost.forEach((fn) => fn());
      }
    },
    held: () => count,
  };
  return api;
}

// --- internal ---

interface _Held {
  lost: (() => void)[];
}

/** The row's leases that have not lapsed at `t`. */
function _live(value: string | undefined, t: number): Record<string, number> {
  if (value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return {};
  }
  const out: Record<string, number> = {};
  if (parsed && typeof parsed === "object") {
    for (const [id, exp] of Object.entries(parsed)) if (typeof exp === "number" && exp > t) out[id] = exp;
  }
  return out;
}

/** The row to store: null (delete it) when no lease is left; it expires with its last lease. */
function _row(live: Record<string, number>, t: number): { value: string; expiresAt: number } | null {
  const exps = Object.values(live);
  if (exps.length === 0) return null;
  return { value: JSON.stringify(live), expiresAt: Math.max(t + 1, ...exps) };
}

function _every(ms: number, fn: () => void): () => void {
  const timer = setInterval(fn, ms);
  timer.unref?.();
  return () => clearInterval(timer);
}
