/**
 * @module change-history
 * The filter of a change-history read (`Storage.readChangeHistory`), the same SQL on both
 * adapters: the changes of a flock, narrowed to a type, a record and a time range, over
 * the `changes` table aliased `c`.
 */
import type { ChangeHistoryQuery } from "@records-service/core";
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
