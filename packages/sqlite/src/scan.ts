/**
 * @module scan
 * `scanRecords`: a walk over the matches of a query in `rid` (insertion) order, one step at
 * a time, for long tasks. The cursor is the last `rid` returned, so a record is visited at
 * most once even when the task's own writes change which records match (updates keep
 * their `rid`). The filters are compiled exactly as for lists (the shared compiler).
 */
import { badRequest, LIST_ELEMENT_MIN_OVERHEAD, type ScanPage, type ScanQuery } from "@records-service/core";
import { sql } from "drizzle-orm";
import type { Catalog } from "./catalog.js";
import type { FieldIdLookup } from "@records-service/sql";
import { compiler } from "./compiler.js";
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
export const SCAN_WINDOW = 20_000;

/** The scanner for one connection; `window` is `SCAN_WINDOW` except in tests. */
export function createScanner(db: Db, catalog: Catalog, window: number = SCAN_WINDOW): Scanner {
  const prepared = createStatementCache(db.$client, 20);
  const nextRid = db.$client.prepare<[number, number], { rid: number | null }>(
    "SELECT min(rid) AS rid FROM records WHERE cid = ? AND rid > ?",
  );
  return (flock, type, query, after, limit, maxDataLength) => {
    const from = _parseCursor(after);
    const cid = catalog.collectionId(flock, type);
    if (cid === undefined) return { records: [], cursor: null };
    const fieldId: FieldIdLookup = (name) => catalog.fieldId(cid, name);
    const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, fieldId, "probe");
    const take = Math.max(1, Math.floor(limit));
    const to = from + window;
    // One row more than asked tells whether the walk goes on.
    const { statement, params } = prepared(
      sql`SELECT r.rid, ${_COLUMNS} FROM records r WHERE ${where} AND r.rid > ${from} AND r.rid <= ${to} ORDER BY r.rid LIMIT ${take + 1}`,
    );
    // Read row by row: a step of large records ends at `maxDataLength` (the first is always taken).
    const rows: (RecordRow & { rid: number })[] = [];
    let length = 0;
    let cut = false;
    for (const row of statement.iterate(...params) as IterableIterator<RecordRow & { rid: number }>) {
      length += row.data.length + LIST_ELEMENT_MIN_OVERHEAD;
      if (maxDataLength !== undefined && rows.length > 0 && rows.length < take && length > maxDataLength) {
        cut = true;
        break;
      }
      rows.push(row);
    }
    const records = rows.slice(0, take).map((row) => toStoredRecord(row, flock, type));
    if (cut) return { records, cursor: String(rows.at(-1)!.rid) };
    if (rows.length > take) return { records, cursor: String(rows[take - 1]!.rid) };
    // The window is walked: go on from the collection's next record past it, if any.
    const next = nextRid.get(cid, to)?.rid ?? null;
    return { records, cursor: next === null ? null : String(next - 1) };
  };
}

// --- internal ---

const _COLUMNS = sql.raw(
  "r.id, r.state, r.data, r.display_value AS displayValue, r.created, r.last_updated AS lastUpdated, r.version",
);

function _parseCursor(after: string | null): number {
  if (after === null) return 0;
  if (!/^\d{1,15}$/.test(after)) throw badRequest("invalid cursor", `'${after.slice(0, 40)}' is not a scan cursor`);
  return Number(after);
}
