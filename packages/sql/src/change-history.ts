/**
 * @module change-history
 * What a change-history read (`Storage.readChangeHistory`) shares on both adapters: the
 * filter (the changes of a flock, narrowed to a type, a record and a time range, over the
 * `changes` table aliased `c`), the filter of a record's oldest kept change, and the page
 * row as a `HistoryChange`.
 */
import { changeFromRow, type ChangeHistoryQuery, type ChangeTableRow, type HistoryChange, type RecordState } from "@records-service/core";
import { sql, type SQL } from "drizzle-orm";

/**
 * The WHERE clause of `q` for `flock`.
 *
 * @example
 * sql`SELECT * FROM changes c WHERE ${changeHistoryWhere("demo", { recordId: "0a…", skip: 0, limit: 50 })}`
 */
export function changeHistoryWhere(flock: string, q: ChangeHistoryQuery): SQL {
  const parts = [sql`c.flock = ${flock}`];
  if (q.type !== undefined) parts.push(sql`c.type = ${q.type}`);
  if (q.recordId !== undefined) parts.push(sql`c.record_id = ${q.recordId}`);
  if (q.from !== undefined) parts.push(sql`c.changed_at >= ${q.from}`);
  if (q.to !== undefined) parts.push(sql`c.changed_at < ${q.to}`);
  return sql.join(parts, sql` AND `);
}

/** The filter of the oldest kept change of `q`'s record (`q.recordId` set). */
export function oldestChangeWhere(flock: string, q: ChangeHistoryQuery & { recordId: string }): SQL {
  return changeHistoryWhere(flock, { ...(q.type !== undefined ? { type: q.type } : {}), recordId: q.recordId, skip: 0, limit: 1 });
}

/** A history page row: a change row with the state of its record's previous kept change. */
export interface HistoryRow extends ChangeTableRow {
  previous_state: string | null;
}

/**
 * The history change of a page row.
 *
 * @example
 * rows.map((r) => historyChangeFromRow("demo", r));
 */
export function historyChangeFromRow(flock: string, r: HistoryRow): HistoryChange {
  return { ...changeFromRow(flock, r), previousState: r.previous_state as RecordState | null };
}
