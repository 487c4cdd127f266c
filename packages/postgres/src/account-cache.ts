/**
 * @module account-cache
 * Every API request looks up its key, the key's user and the flock (twice). These rows
 * change rarely, so they are kept in memory and dropped whenever the account tables may
 * have changed, as the change watch's account generation tells (this process's account
 * writes at once, other processes' at the next sync or when their notification arrives;
 * record writes leave them). Only rows that exist are kept (an unknown token costs a read,
 * not memory); callers get copies.
 */
import type { ApiKeyRow, FlockRow, UserRow } from "@records-service/core";
import type { AccountStore } from "./accounts.js";

/** The cached lookups, with the same meaning as the account store's. */
export type CachedLookups = Pick<AccountStore, "getFlock" | "getUser" | "getApiKey">;

/**
 * Lookups answered from memory while `generation()` is unchanged.
 *
 * @example
 * const cached = createAccountCache(accounts, watch.accountGeneration);
 * await cached.getApiKey(hash); // read once, then from memory until an account table is written
 */
export function createAccountCache(accounts: AccountStore, generation: () => number): CachedLookups {
  const flocks = new Map<string, FlockRow>();
  const users = new Map<string, UserRow>();
  const keys = new Map<string, ApiKeyRow>();
  let seen = -1;

  /** Empties the maps when the database changed since the last lookup; returns the generation read under. */
  const sync = (): number => {
    const g = generation();
    if (g !== seen) {
      seen = g;
      flocks.clear();
      users.clear();
      keys.clear();
    }
    return g;
  };

  /** Reads through `read`, keeping the row only if nothing changed while it was read. */
  const cached = async <T>(map: Map<string, T>, key: string, read: (key: string) => Promise<T | undefined>): Promise<T | undefined> => {
    const g = sync();
    const hit = map.get(key);
    if (hit !== undefined) return hit;
    const row = await read(key);
    if (row === undefined || generation() !== g) return row;
    if (map.size >= _MAX_ENTRIES) map.clear();
    map.set(key, row);
    return row;
  };

  return {
    async getFlock(identifier) {
      const row = await cached(flocks, identifier, accounts.getFlock);
      return row && { ...row };
    },
    async getUser(username) {
      const row = await cached(users, username, accounts.getUser);
      return row && { ...row, flocks: [...row.flocks] };
    },
    async getApiKey(tokenHash) {
      const row = await cached(keys, tokenHash, accounts.getApiKey);
      return row && { ...row };
    },
  };
}

// --- internal ---

/** Entries per map before it is emptied (bounds memory under many distinct keys). */
const _MAX_ENTRIES = 1000;
