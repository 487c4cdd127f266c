/**
 * @module memory/memory-limits
 * The memory adapter's limit rows (`Storage.updateLimit`): a map swept of expired rows at
 * most once a minute of the caller's time, by expiry only, never by count.
 */
import type { LimitChange, LimitEntry, LimitRow } from "../storage/shared-state.js";

/** The limit rows of one memory storage. */
export interface MemoryLimits {
  update(key: string, now: number, fn: (current: string | undefined) => LimitChange): string | undefined;
  /** Live rows whose key starts with `prefix`, by key, at most `limit`. */
  list(prefix: string, now: number, limit: number): LimitEntry[];
}

/**
 * An empty set of limit rows.
 *
 * @example
 * const limits = createMemoryLimits();
 * limits.update("k", Date.now(), () => ({ value: "1", expiresAt: Date.now() + 60_000 })); // "1"
 */
export function createMemoryLimits(): MemoryLimits {
  const rows = new Map<string, LimitRow>();
  let purgedAt = -Infinity;
  return {
    update(key, now, fn) {
      if (now - purgedAt >= _PURGE_EVERY_MS || now < purgedAt) {
        purgedAt = now;
        for (const [k, row] of rows) if (row.expiresAt <= now) rows.delete(k);
      }
      const row = rows.get(key);
      const change = fn(row && row.expiresAt > now ? row.value : undefined);
      if (change === null) rows.delete(key);
      else if (change !== undefined) rows.set(key, { value: change.value, expiresAt: change.expiresAt });
      const after = rows.get(key);
      return after && after.expiresAt > now ? after.value : undefined;
    },
    list(prefix, now, limit) {
      return [...rows]
        .filter(([k, row]) => k.startsWith(prefix) && row.expiresAt > now)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, Math.max(0, Math.floor(limit)))
        .map(([key, row]) => ({ key, ...row }));
    },
  };
}

// --- internal ---

const _PURGE_EVERY_MS = 60_000;
