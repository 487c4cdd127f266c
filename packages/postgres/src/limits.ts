/**
 * @module limits
 * `Storage.updateLimit` on PostgreSQL. One transaction per call: its first statement
 * inserts the key with an already-expired placeholder (`expires_at = now`) or, when the
 * key exists, locks its row and reads it (`INSERT ... ON CONFLICT DO UPDATE` with a no-op
 * update: the "insert if missing, then SELECT ... FOR UPDATE" of the Storage contract in
 * one statement, which PostgreSQL keeps atomic even against a concurrent delete, so no
 * retry loop). Every other caller of the key, in any process, waits on that row lock until
 * the commit, then reads the new value. Expired rows are purged by `limits_expires_at_idx`
 * in a statement of their own before the transaction (so its locks never meet another
 * caller's), when `createLimitPurgeClock` says. What an update writes and answers is `limitUpdate`'s.
 * The commit does not wait for the disk (`asyncCommit`): a failed login costs one WAL
 * flush less (about 4 ms of the 5 on a busy machine), and a server crash can lose at most
 * the last fraction of a second of counts, which is no way around the guard.
 */
import type { LimitChange, LimitEntry } from "@records-service/core";
import { createLimitPurgeClock, limitListSize, limitUpdate, LIMIT_PURGE_BATCH } from "@records-service/sql";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { exec, transaction } from "./exec.js";

/** The limit rows over one pool. */
export interface LimitStore {
  update(key: string, now: number, fn: (current: string | undefined) => LimitChange): Promise<string | undefined>;
  /** Live rows whose key starts with `prefix`, by key (`Storage.listLimits`). */
  list(prefix: string, now: number, limit?: number): Promise<LimitEntry[]>;
}

/**
 * The statements over the `limits` table.
 *
 * @example
 * const limits = createLimitStore(pool);
 * await limits.update("login:x", Date.now(), (v) => ({ value: String(Number(v ?? 0) + 1), expiresAt: Date.now() + 60_000 }));
 */
export function createLimitStore(pool: pg.Pool): LimitStore {
  const purgeClock = createLimitPurgeClock();

  const purge = async (now: number): Promise<void> => {
    if (!purgeClock.due(now)) return;
    // SKIP LOCKED: a row another caller holds is theirs to rewrite, not ours to wait for.
    const { rowCount } = await exec(
      pool,
      sql`DELETE FROM limits WHERE key IN (
            SELECT key FROM limits WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${LIMIT_PURGE_BATCH} FOR UPDATE SKIP LOCKED)`,
      "purge_limits",
    );
    purgeClock.done(now, rowCount);
  };

  return {
    async update(key, now, fn) {
      await purge(now);
      const locked = async (c: pg.PoolClient): Promise<string | undefined> => {
        const { rows } = await exec<{ value: string; expires_at: string }>(
          c,
          sql`INSERT INTO limits (key, value, expires_at) VALUES (${key}, '', ${Math.floor(now)})
              ON CONFLICT (key) DO UPDATE SET key = limits.key RETURNING value, expires_at`,
          "lock_limit",
        );
        const row = rows[0]!;
        const current = Number(row.expires_at) > now ? row.value : undefined;
        const { write, result } = limitUpdate(current, fn(current), now);
        if (write.kind === "delete" || (write.kind === "keep" && current === undefined)) {
          // Deleting an absent (expired or placeholder) row changes nothing anyone can read.
          await exec(c, sql`DELETE FROM limits WHERE key = ${key}`, "delete_limit");
        } else if (write.kind === "set") {
          await exec(c, sql`UPDATE limits SET value = ${write.value}, expires_at = ${write.expiresAt} WHERE key = ${key}`, "set_limit");
        }
        return result;
      };
      return transaction(pool, locked, { asyncCommit: true });
    },
    async list(prefix, now, limit) {
      const { rows } = await exec<{ key: string; value: string; expires_at: string }>(
        pool,
        sql`SELECT key, value, expires_at FROM limits
            WHERE key >= ${prefix} AND left(key, ${prefix.length}) = ${prefix} AND expires_at > ${Math.floor(now)}
            ORDER BY key LIMIT ${limitListSize(limit)}`,
        "list_limits",
      );
      return rows.map((r) => ({ key: r.key, value: r.value, expiresAt: Number(r.expires_at) }));
    },
  };
}
