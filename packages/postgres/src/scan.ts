/**
 * @module scan
 * `scanRecords`: a walk over the matches of a query in `rid` (insertion) order, one step at
 * a time, for long tasks. The cursor is the last `rid` returned, so a record is visited at
 * most once even when the task's own writes change which records match (updates keep
 * their `rid`). The filters are compiled as for lists, in their probe form, and a step
 * walks at most `SCAN_WINDOW` rids, as on SQLite.
 */
import { badRequest, LIST_ELEMENT_MIN_OVERHEAD, type ScanPage, type ScanQuery } from "@records-service/core";
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { Catalog } from "./catalog.js";
import { exec } from "./exec.js";
import { RECORD_COLUMNS, compiler, filterFields, toStoredRecord, upToDataLength, type RecordRow } from "./read.js";

/** The scan (see `Storage.scanRecords`). */
export type Scanner = (
  flock: string,
  type: string,
  query: ScanQuery,
  after: string | null,
  limit: number,
  maxDataLength?: number,
) => Promise<ScanPage>;

/** Most `rid`s one step walks (a selective filter would otherwise walk the whole collection in one statement). */
export const SCAN_WINDOW = 20_000;

/** The scanner over `pool`; `window` is `SCAN_WINDOW` except in tests. */
export function createScanner(pool: pg.Pool, catalog: Catalog, window: number = SCAN_WINDOW): Scanner {
  return async (flock, type, query, after, limit, maxDataLength) => {
    const from = _parseCursor(after);
    const cid = await catalog.collectionId(pool, flock, type);
    if (cid === undefined) return { records: [], cursor: null };
    const fieldId = await catalog.fieldLookup(pool, cid, filterFields(query));
    const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, fieldId, "probe");
    const take = Math.max(1, Math.floor(limit));
    const to = from + window;
    // One row more than asked tells whether the walk goes on.
    const step = sql`SELECT r.rid, ${RECORD_COLUMNS} FROM records r WHERE ${where} AND r.rid > ${from} AND r.rid <= ${to} ORDER BY r.rid LIMIT ${take + 1}`;
    const { rows: read } = await exec<RecordRow & { rid: string }>(pool, maxDataLength === undefined ? step : upToDataLength(step, maxDataLength));
    // A step of large records ends at `maxDataLength` (the first is always taken), as on SQLite.
    const rows: typeof read = [];
    let length = 0;
    let cut = false;
    for (const row of read) {
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
    const next = await exec<{ rid: string | null }>(
      pool,
      sql`SELECT min(rid) AS rid FROM records WHERE cid = ${cid} AND rid > ${to}`,
      "scan_next_rid",
    );
    const rid = next.rows[0]?.rid ?? null;
    return { records, cursor: rid === null ? null : String(Number(rid) - 1) };
  };
}

// --- internal ---

function _parseCursor(after: string | null): number {
  if (after === null) return 0;
  if (!/^\d{1,15}$/.test(after)) throw badRequest("invalid cursor", `'${after.slice(0, 40)}' is not a scan cursor`);
  return Number(after);
}
