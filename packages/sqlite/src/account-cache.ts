/**
 * @module account-cache
 * Every API request looks up its key, the key's user and the flock (twice: the route's
 * access check and the engine's own). These rows change rarely, so they are kept in memory
 * and dropped whenever the database may have changed: `total_changes()` moves when this
 * connection writes (checked on every lookup; it costs next to nothing), `PRAGMA
 * data_version` when another connection (e.g. the CLI's `user add`) commits. The pragma
 * costs as much as the lookup it saves, so it is asked at most every `recheckMs` (25 ms):
 * another process's change is seen within that time.
 */
import type { ApiKeyRow, FlockRow, UserRow } from "@records-service/core";
import type Database from "better-sqlite3";
import type { AccountStore } from "./accounts.js";

/** Options of `createAccountCache`; tests inject the time. */
export interface AccountCacheOptions {
  /** How long another connection's commit may go unseen, in ms. Default 25. */
  recheckMs?: number;
  /** A monotonic clock in ms. Default `performance.now`. */
  now?: () => number;
}

/** The cached lookups, with the same meaning as the account store's. */
export type CachedLookups = Pick<AccountStore, "getFlock" | "getUser" | "getApiKey">;

/**
 * Lookups of flocks, users and keys answered from memory while the database is unchanged.
 * Only rows that exist are kept (an unknown token costs a read, not memory); each map is
 * emptied past `_MAX_ENTRIES`. Callers get copies, so they cannot alter the cache.
 *
 * @example
 * const cached = createAccountCache(db.$client, accounts);
 * cached.getApiKey(hash); // read once, then from memory until something is written
 */
export function createAccountCache(
  client: Database.Database,
  accounts: AccountStore,
  opts: AccountCacheOptions = {},
): CachedLookups {
  const recheckMs = opts.recheckMs ?? 25;
  const now = opts.now ?? (() => performance.now());
  const selChanges = client.prepare<[], number>("SELECT total_changes()").pluck();
  const selVersion = client.prepare<[], number>("PRAGMA data_version").pluck();
  const flocks = new Map<string, FlockRow>();
  const users = new Map<string, UserRow>();
  const keys = new Map<string, ApiKeyRow>();
  let changes = -1;
  let version = -1;
  let checked = -Infinity;

  /** Empties the maps when the database changed since the last lookup. */
  const sync = () => {
    const c = selChanges.get()!;
    let v = version;
    const t = now();
    if (t - checked >= recheckMs) {
      v = selVersion.get()!;
      checked = t;
    }
    if (c === changes && v === version) return;
    changes = c;
    version = v;
    flocks.clear();
    users.clear();
    keys.clear();
  };

  return {
    getFlock(identifier) {
      sync();
      const row = _cached(flocks, identifier, accounts.getFlock);
      return row && { ...row };
    },
    getUser(username) {
      sync();
      const row = _cached(users, username, accounts.getUser);
      return row && { ...row, flocks: [...row.flocks] };
    },
    getApiKey(tokenHash) {
      sync();
      const row = _cached(keys, tokenHash, accounts.getApiKey);
      return row && { ...row };
    },
  };
}

// --- internal ---

/** Entries per map before it is emptied (bounds memory under many distinct keys). */
const _MAX_ENTRIES = 1000;

function _cached<T>(map: Map<string, T>, key: string, read: (key: string) => T | undefined): T | undefined {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const row = read(key);
  if (row === undefined) return undefined;
  if (map.size >= _MAX_ENTRIES) map.clear();
  map.set(key, row);
  return row;
}
