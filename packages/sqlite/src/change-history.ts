/**
 * @module change-history
 * `readChangeHistory` on SQLite: a record's or a flock's kept changes, newest first, each
 * with the state of its record's previous kept change (one indexed lookup per row, on
 * `changes_record_idx`, named since the service runs no ANALYZE), the total and a record's
 * oldest kept change, read in one snapshot.
 */
import { changeFromRow, type ChangeHistoryPage, type ChangeHistoryQuery, type ChangeTableRow } from "@records-service/core";
import type Database from "better-sqlite3";
import { changeHistoryWhere, historyChangeFromRow, oldestChangeWhere, type HistoryRow } from "@records-service/sql";
import { sql, type SQL } from "drizzle-orm";
import { createStatementCache } from "./statement-cache.js";

/** Reads history pages over `client`. */
export function createChangeHistoryReader(client: Database.Database): (flock: string, query: ChangeHistoryQuery) => ChangeHistoryPage {
  const prepared = createStatementCache(client, 40);
  const all = <T>(query: SQL): T[] => {
    const { statement, params } = prepared(query);
    return statement.all(...params) as T[];
  };
  const read = client.transaction((flock: string, q: ChangeHistoryQuery): ChangeHistoryPage => {
    const statements = historyStatements(flock, q);
    const rows = all<HistoryRow>(statements.page);
    const total = all<{ n: number }>(statements.count)[0]?.n ?? 0;
    const page: ChangeHistoryPage = { changes: rows.map((r) => historyChangeFromRow(flock, r)), total };
    const first = statements.oldest ? all<ChangeTableRow>(statements.oldest)[0] : undefined;
    if (first) page.oldest = changeFromRow(flock, first);
    return page;
  });
  return (flock, query) => read.deferred(flock, query);
}

/**
 * The statements of one history read: the page (with each row's previous state), the
 * count and, with `recordId`, the record's oldest kept change. Exported for the plan tests.
 */
export function historyStatements(flock: string, q: ChangeHistoryQuery): { page: SQL; count: SQL; oldest?: SQL } {
  const where = changeHistoryWhere(flock, q);
  // INDEXED BY: without ANALYZE statistics (the service never runs it) SQLite walked the
  // flock's whole log by its key for a record's changes, and for each row's previous one.
  const c = q.recordId !== undefined && q.type !== undefined ? _BY_RECORD_C : _C;
  const page = sql`
    SELECT c.*, (SELECT p.state FROM changes p INDEXED BY changes_record_idx
                 WHERE p.flock = c.flock AND p.type = c.type AND p.record_id = c.record_id AND p.id < c.id
                 ORDER BY p.id DESC LIMIT 1) AS previous_state
    FROM ${c} WHERE ${where} ORDER BY c.id DESC LIMIT ${Math.max(0, q.limit)} OFFSET ${Math.max(0, q.skip)}`;
  const count = sql`SELECT count(*) AS n FROM ${c} WHERE ${where}`;
  if (q.recordId === undefined) return { page, count };
  return { page, count, oldest: sql`SELECT * FROM ${c} WHERE ${oldestChangeWhere(flock, { ...q, recordId: q.recordId })} ORDER BY c.id LIMIT 1` };
}

// --- internal ---

const _C = sql.raw("changes c");
const _BY_RECORD_C = sql.raw("changes c INDEXED BY changes_record_idx");
