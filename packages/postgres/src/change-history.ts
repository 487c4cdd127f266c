/**
 * @module change-history
 * `readChangeHistory` on PostgreSQL: a record's or a flock's kept changes, newest first,
 * each with the state of its record's previous kept change (one lookup per row on
 * `changes_record_idx`), the total and a record's oldest kept change, in one statement
 * (so one snapshot).
 */
import { changeFromRow, type ChangeHistoryPage, type ChangeHistoryQuery, type ChangeTableRow } from "@records-service/core";
import { changeHistoryWhere, historyChangeFromRow, oldestChangeWhere, type HistoryRow } from "@records-service/sql";
import { sql, type SQL } from "drizzle-orm";
import { exec, type Conn } from "./exec.js";

/**
 * The history page `query` selects in `flock`.
 *
 * @example
 * await readChangeHistory(pool, "demo", { type: "person", recordId: id, skip: 0, limit: 100 });
 */
export async function readChangeHistory(c: Conn, flock: string, q: ChangeHistoryQuery): Promise<ChangeHistoryPage> {
  const { rows } = await exec<_Row>(c, historyStatement(flock, q));
  const first = rows[0];
  const page: ChangeHistoryPage = {
    changes: rows.flatMap((r) => (r.id === null ? [] : [historyChangeFromRow(flock, { ...r, id: r.id })])),
    total: Number(first?.total ?? 0),
  };
  if (first?.oldest) page.oldest = changeFromRow(flock, first.oldest);
  return page;
}

/**
 * The one statement of a history read: a row per change of the page (with its previous
 * state), each carrying the total and (with `recordId`) the record's oldest kept change;
 * one row of nulls but those when the page is empty. Exported for the plan tests.
 */
export function historyStatement(flock: string, q: ChangeHistoryQuery): SQL {
  const where = changeHistoryWhere(flock, q);
  const oldest =
    q.recordId === undefined
      ? sql`NULL::json`
      : sql`(SELECT row_to_json(o) FROM (SELECT * FROM changes c WHERE ${oldestChangeWhere(flock, { ...q, recordId: q.recordId })}
             ORDER BY c.id LIMIT 1) o)`;
  return sql`SELECT (SELECT count(*) FROM changes c WHERE ${where}) AS total, ${oldest} AS oldest, page.*
      FROM (SELECT 1) AS one LEFT JOIN LATERAL (
        SELECT c.*, (SELECT p.state FROM changes p
                     WHERE p.flock = c.flock AND p.type = c.type AND p.record_id = c.record_id AND p.id < c.id
                     ORDER BY p.id DESC LIMIT 1) AS previous_state
        FROM changes c WHERE ${where} ORDER BY c.id DESC LIMIT ${Math.max(0, q.limit)} OFFSET ${Math.max(0, q.skip)}
      ) page ON true ORDER BY page.id DESC`;
}

// --- internal ---

interface _Row extends Omit<HistoryRow, "id"> {
  id: string | null;
  total: string;
  oldest: ChangeTableRow | null;
}
