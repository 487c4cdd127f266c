/**
 * @module scan
 * `scanRecords`: a walk over the matches of a query in `rid` (insertion) order, one step at
 * a time, for long tasks. The cursor is the last `rid` returned, so a record is visited at
 * most once even when the task's own writes change which records match (updates keep
 * their `rid`). The filters are compiled exactly as for lists (the shared compiler).
 */
import type { ScanPage, ScanQuery } from "@records-service/core";
import { sql } from "drizzle-orm";
import type { Catalog } from "./catalog.js";
import { cursorBefore, scanCursorFrom, scanStepStatement, takeScanRows, type FieldIdLookup } from "@records-service/sql";
import { compiler } from "./compiler.js";
import { createFieldIndexes, type FieldIndexes } from "./field-indexes.js";
import type { Db } from "./open.js";
import { toStoredRecord, type RecordRow } from "./read.js";
import { createStatementCache } from "./statement-cache.js";

/** The synchronous scan of one connection (the Storage wrapper makes it async). */
export type Scanner = (flock: string, type: string, query: ScanQuery, after: string | null, limit: number, maxDataLength?: number) => ScanPage;

/**
 * Most `rid`s one step walks. A selective filter would otherwise walk the whole
 * collection in one synchronous step looking for `limit` matches; bounded, a step costs
 * at most this many primary-key probes per filter, and may return fewer records (even
 * none) with a cursor to go on from.
 */
const SCAN_WINDOW = 20_000;

/** The scanner for one connection; `window` is `SCAN_WINDOW` except in tests. */
export function createScanner(
  db: Db,
  catalog: Catalog,
  window: number = SCAN_WINDOW,
  sources: FieldIndexes["source"] = createFieldIndexes(db.$client, catalog).source,
): Scanner {
  const prepared = createStatementCache(db.$client, 20);
  const nextRid = db.$client.prepare<[number, number], { rid: number | null }>(
    "SELECT min(rid) AS rid FROM records WHERE cid = ? AND rid > ?",
  );
  return (flock, type, query, after, limit, maxDataLength) => {
    const from = scanCursorFrom(after);
    const cid = catalog.collectionId(flock, type);
    if (cid === undefined) return { records: [], cursor: null };
    const fieldId: FieldIdLookup = sources(cid, flock, type);
    const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, fieldId, "probe");
    const take = Math.max(1, Math.floor(limit));
    const to = from + window;
    const { statement, params } = prepared(scanStepStatement(where, _COLUMNS, from, to, take));
    // Read row by row, so a step of large records stops reading where it is cut.
    const step = takeScanRows(statement.iterate(...params) as IterableIterator<RecordRow & { rid: number }>, take, maxDataLength);
    const records = step.rows.map((row) => toStoredRecord(row, flock, type));
    if (step.next !== "window") return { records, cursor: step.next.cursor };
    // The window is walked: go on from the collection's next record past it, if any.
    return { records, cursor: cursorBefore(nextRid.get(cid, to)?.rid ?? null) };
  };
}

// --- internal ---

const _COLUMNS = sql.raw(
  "r.id, r.state, r.data, r.display_value AS displayValue, r.created, r.last_updated AS lastUpdated, r.version",
);
