/**
 * @module changes
 * The change feed's log on PostgreSQL. `changeLogInserts` runs last in `apply`'s transaction:
 * it moves the flock's head with an upsert, whose row lock is held until commit, so a
 * second writer of the flock takes its ids only after the first has committed (and is
 * visible): ids are handed out in commit order, and a reader that saw id n has seen every
 * id below it. A rolled-back writer gives its ids back with its head update, so there are
 * no gaps. `readChanges` reads the head and the page in one statement (one snapshot).
 */
import { byFlock, changeFromRow, changePurgeWindowEnd, type Attribution, type ChangePage, type ChangeTableRow, type PendingChange } from "@records-service/core";
import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import { exec, transaction, type Conn } from "./exec.js";

/**
 * Gives `pending` their ids and stores them with the set's attribution, on `c` inside the
 * write transaction, in one statement (`changeLogInserts`). `apply` runs the same inserts
 * inside its last statement; this one serves tests of the log alone.
 */
export async function appendChanges(c: pg.PoolClient, pending: readonly PendingChange[], attribution?: Attribution): Promise<void> {
  await exec(c, sql`WITH ${changeLogInserts(pending, attribution, sql`true`)} SELECT 1`, "append_changes");
}

/**
 * The CTEs `heads, logged` (for a `WITH` list) that log `pending`: each flock's head moves
 * by its number of changes with an upsert, flocks in sorted order (so two writers of
 * several flocks never wait on each other in a cycle), once `after` (a condition on the
 * statement's earlier CTEs, which makes them run first) holds; each change's id counts back
 * from its flock's new head. The text is the same for any `pending`.
 */
export function changeLogInserts(pending: readonly PendingChange[], attribution: Attribution | undefined, after: SQL): SQL {
  const heads: [string, number][] = [];
  const rows: { change: PendingChange; back: number }[] = [];
  for (const [flock, group] of byFlock(pending)) {
    heads.push([flock, group.length]);
    for (const [i, change] of group.entries()) rows.push({ change, back: group.length - 1 - i });
  }
  heads.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const p = sql.param;
  const col = <T>(f: (x: PendingChange) => T) => p(rows.map((r) => f(r.change)));
  return sql`heads AS (INSERT INTO change_heads (flock, last_id)
            SELECT * FROM unnest(${p(heads.map((h) => h[0]))}::text[], ${p(heads.map((h) => h[1]))}::bigint[]) AS g(flock, n)
            WHERE ${after} ORDER BY g.flock
            ON CONFLICT (flock) DO UPDATE SET last_id = change_heads.last_id + excluded.last_id RETURNING flock, last_id),
          logged AS (INSERT INTO changes (flock, id, type, record_id, state, version, changed_at, fields, actor, application)
            SELECT u.flock, h.last_id - u.back, u.type, u.record_id, u.state, u.version, u.changed_at, u.fields,
              ${attribution?.actor ?? null}::text, ${attribution?.application ?? null}::text
            FROM unnest(${col((x) => x.flock)}::text[], ${p(rows.map((r) => r.back))}::bigint[], ${col((x) => x.type)}::text[],
              ${col((x) => x.recordId)}::text[], ${col((x) => x.state)}::text[], ${col((x) => x.version)}::int[],
              ${col((x) => x.changedAt)}::text[], ${col((x) => JSON.stringify(x.fields))}::text[])
              AS u(flock, back, type, record_id, state, version, changed_at, fields)
            JOIN heads h ON h.flock = u.flock)`;
}

/** A page of the flock's changes after `after`, with its head and purge mark (one snapshot). */
export async function readChanges(c: Conn, flock: string, after: number, limit: number, types?: readonly string[]): Promise<ChangePage> {
  const typed = types !== undefined && types.length > 0;
  const { rows } = await exec<_Row>(c, readChangesStatement(flock, after, limit, types), typed ? "read_changes_of_types" : "read_changes");
  const first = rows[0];
  if (!first) return { changes: [], head: 0, purgedThrough: 0 };
  // The LEFT JOIN gives one row with a null id when the flock has no change after `after`.
  const changes = rows.flatMap((r) => (r.id === null ? [] : [changeFromRow(flock, { ...r, id: r.id })]));
  return { changes, head: Number(first.last_id), purgedThrough: Number(first.purged_through) };
}

/**
 * The statement of `readChanges`. With types: each type's next `limit` changes by
 * changes_type_idx (flock, type, id), then the first `limit` of them; never a walk of the
 * log's other types.
 */
export function readChangesStatement(flock: string, after: number, limit: number, types?: readonly string[]): SQL {
  const typed = types !== undefined && types.length > 0;
  const page = typed
    ? sql`SELECT y.* FROM unnest(${sql.param([...new Set(types)])}::text[]) t(type) CROSS JOIN LATERAL (
            SELECT * FROM changes x WHERE x.flock = h.flock AND x.type = t.type AND x.id > ${after} ORDER BY x.id LIMIT ${limit}
          ) y ORDER BY y.id LIMIT ${limit}`
    : sql`SELECT * FROM changes x WHERE x.flock = h.flock AND x.id > ${after} ORDER BY x.id LIMIT ${limit}`;
  return sql`SELECT h.last_id, h.purged_through, c.id, c.type, c.record_id, c.state, c.version, c.changed_at, c.fields, c.actor, c.application
        FROM change_heads h LEFT JOIN LATERAL (${page}) c ON true
        WHERE h.flock = ${flock} ORDER BY c.id`;
}

/** The heads of those of `flocks` that have a log (`Storage.readChangeHeads`), in one statement. */
export async function readChangeHeads(c: Conn, flocks: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await exec<{ flock: string; last_id: string }>(
    c,
    sql`SELECT flock, last_id FROM change_heads WHERE flock = ANY(${sql.param([...new Set(flocks)])}::text[])`,
    "read_change_heads",
  );
  return new Map(rows.map((r) => [r.flock, Number(r.last_id)]));
}

/**
 * Per flock (in sorted order, the writers' lock order), removes the changes up to the last
 * one before `before`, at most `limit` in all, and moves the purge mark; one transaction.
 * Returns how many went.
 */
export async function purgeChanges(pool: pg.Pool, before: string, limit = Number.MAX_SAFE_INTEGER): Promise<number> {
  return transaction(pool, async (c) => {
    const { rows } = await exec<{ flock: string; purged: string }>(c, sql`SELECT flock, purged_through AS purged FROM change_heads ORDER BY flock`, "purge_changes_heads");
    let removed = 0;
    for (const { flock, purged } of rows) {
      // The purge window (see `changePurgeWindowEnd`): a key range, not a walk of the backlog.
      const upTo = changePurgeWindowEnd(Number(purged), limit - removed);
      const m = (
        await exec<{ m: string | null }>(
          c,
          sql`SELECT max(id) AS m FROM changes WHERE flock = ${flock} AND id > ${Number(purged)} AND id <= ${upTo} AND changed_at < ${before}`,
          "purge_changes_cut",
        )
      ).rows[0]?.m;
      if (m === null || m === undefined) continue;
      const cut = Number(m);
      await exec(c, sql`UPDATE change_heads SET purged_through = GREATEST(purged_through, ${cut}) WHERE flock = ${flock}`, "mark_changes_purged");
      const res = await exec(c, sql`DELETE FROM changes WHERE flock = ${flock} AND id <= ${cut}`, "purge_changes");
      removed += res.rowCount;
      if (removed >= limit) break;
    }
    return removed;
  });
}

// --- internal ---

interface _Row extends Omit<ChangeTableRow, "id"> {
  last_id: string;
  purged_through: string;
  id: string | null;
}
