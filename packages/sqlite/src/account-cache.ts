/**
 * @module account-cache
 * Every API request looks up its key, the key's user and the flock (twice: the route's
 * access check and the engine's own). These rows change rarely, so they are kept in memory.
 * When a `ChangeWatch` says the database may have changed (own writes at once, other
 * connections' commits within its 25 ms, or at once after `sync`), the mark of account
 * changes (`account_changes`, a new random number set by triggers in every writing
 * transaction, migration 0015; random, so a database restored over this one cannot bring
 * back a mark seen before) is read: the rows are dropped only when it moved, so a record
 * write no longer empties the cache for every request after it. Lookups read committed
 * rows: no caller looks an account up inside a transaction that wrote one.
 */
import type { ApiKeyRow, FlockRow, UserRow } from "@records-service/core";
import type Database from "better-sqlite3";
import type { AccountStore } from "./accounts.js";
import { createChangeWatch, type ChangeWatch, type ChangeWatchOptions } from "./change-watch.js";

/** Options of `createAccountCache`: a shared watch, or the options of its own (tests inject the time). */
export interface AccountCacheOptions extends ChangeWatchOptions {
  /** The watch telling when to drop the cache; default a new one on `client`. */
  watch?: ChangeWatch;
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
  const watch = opts.watch ?? createChangeWatch(client, opts);
  const selAccountChanges = client.prepare<[], number>("SELECT n FROM account_changes WHERE id = 1").pluck();
  const flocks = new Map<string, FlockRow>();
  const users = new Map<string, UserRow>();
  const keys = new Map<string, ApiKeyRow>();
  let seen = -1;
  /** The account changes' mark the maps are of. */
  let markedAt: number | undefined;

  /** Empties the maps when the account tables changed since the last lookup. */
  const sync = () => {
    const g = watch.generation();
    if (g === seen) return;
    seen = g;
    // A mark read inside a transaction that is rolled back never comes back: the next one is
    // a new random number, so the rows read under it are dropped at the next change.
    const n = selAccountChanges.get();
    if (n === markedAt) return;
    markedAt = n;
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
