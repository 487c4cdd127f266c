/**
 * @module limits
 * `Storage.updateLimit` on SQLite: one immediate transaction per call (it takes the write
 * lock first, so a read-modify-write from another connection or process waits for it and
 * then reads the new value), and a purge of expired rows by `limits_expires_at_idx`,
 * when `createLimitPurgeClock` says (at most once a minute of the caller's time, at most
 * `LIMIT_PURGE_BATCH` rows). What an update writes and answers is `limitUpdate`'s.
 */
import type { LimitChange, LimitEntry } from "@records-service/core";
import { createLimitPurgeClock, limitListSize, limitUpdate, LIMIT_PURGE_BATCH } from "@records-service/sql";
import type Database from "better-sqlite3";

/** The limit rows of one connection; synchronous. */
export interface LimitStore {
  update(key: string, now: number, fn: (current: string | undefined) => LimitChange): string | undefined;
  /** Live rows whose key starts with `prefix`, by key (`Storage.listLimits`). */
  list(prefix: string, now: number, limit?: number): LimitEntry[];
}

/**
 * The statements over the `limits` table.
 *
 * @example
 * const limits = createLimitStore(db.$client);
 * limits.update("login:x", Date.now(), (v) => ({ value: String(Number(v ?? 0) + 1), expiresAt: Date.now() + 60_000 }));
 */
export function createLimitStore(client: Database.Database): LimitStore {
  const sel = client.prepare<[string, number], { value: string }>("SELECT value FROM limits WHERE key = ? AND expires_at > ?");
  const put = client.prepare<[string, string, number]>(
    "INSERT INTO limits (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
  );
  const del = client.prepare<[string]>("DELETE FROM limits WHERE key = ?");
  const purge = client.prepare<[number, number]>(
    "DELETE FROM limits WHERE key IN (SELECT key FROM limits WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)",
  );
  const purgeClock = createLimitPurgeClock();

  const update = client.transaction((key: string, now: number, fn: (current: string | undefined) => LimitChange) => {
    if (purgeClock.due(now)) purgeClock.done(now, purge.run(now, LIMIT_PURGE_BATCH).changes);
    const current = sel.get(key, now)?.value;
    const { write, result } = limitUpdate(current, fn(current), now);
    if (write.kind === "delete") del.run(key);
    else if (write.kind === "set") put.run(key, write.value, write.expiresAt);
    return result;
  });

  // By the primary key: the keys from `prefix` up to the first key past every key it starts.
  const list = client.prepare<[{ prefix: string; now: number; limit: number }], { key: string; value: string; expires_at: number }>(
    "SELECT key, value, expires_at FROM limits WHERE key >= @prefix AND substr(key, 1, length(@prefix)) = @prefix AND expires_at > @now ORDER BY key LIMIT @limit",
  );

  return {
    update: (key, now, fn) => update.immediate(key, now, fn),
    list: (prefix, now, limit) =>
      list.all({ prefix, now, limit: limitListSize(limit) }).map((r) => ({ key: r.key, value: r.value, expiresAt: r.expires_at })),
  };
}
