/**
 * @module scan
 * `scanRecords`: a walk over the matches of a query in `rid` (insertion) order, one step at
 * a time, for long tasks. The cursor is the last `rid` returned, so a record is visited at
 * most once even when the task's own writes change which records match (updates keep
 * their `rid`). The filters are compiled as for lists, in their probe form, and a step
 * walks at most `SCAN_WINDOW` rids, as on SQLite.
 */
import type { ScanPage, ScanQuery } from "@records-service/core";
import { cursorBefore, filterFields, scanCursorFrom, scanStepStatement, takeScanRows } from "@records-service/sql";
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { Catalog } from "./catalog.js";
import { exec } from "./exec.js";
import { createFieldIndexes, type FieldIndexes } from "./field-indexes.js";
import { RECORD_COLUMNS, compiler, toStoredRecord, upToDataLength, type RecordRow } from "./read.js";

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
const SCAN_WINDOW = 20_000;

/** The scanner over `pool`; `window` is `SCAN_WINDOW` except in tests. */
export function createScanner(
  pool: pg.Pool,
  catalog: Catalog,
  window: number = SCAN_WINDOW,
  sources: FieldIndexes["sources"] = createFieldIndexes(pool, catalog).sources,
): Scanner {
  return async (flock, type, query, after, limit, maxDataLength) => {
    const from = scanCursorFrom(after);
    const cid = await catalog.collectionId(pool, flock, type);
    if (cid === undefined) return { records: [], cursor: null };
    const fieldId = await sources(cid, flock, type, filterFields(query));
    const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, fieldId, "probe");
    const take = Math.max(1, Math.floor(limit));
    const to = from + window;
    const stepSql = scanStepStatement(where, RECORD_COLUMNS, from, to, take);
    const { rows: read } = await exec<RecordRow & { rid: string }>(pool, maxDataLength === undefined ? stepSql : upToDataLength(stepSql, maxDataLength));
    const step = takeScanRows(read, take, maxDataLength);
    const records = step.rows.map((row) => toStoredRecord(row, flock, type));
    if (step.next !== "window") return { records, cursor: step.next.cursor };
    // The window is walked: go on from the collection's next record past it, if any.
    const next = await exec<{ rid: string | null }>(
      pool,
      sql`SELECT min(rid) AS rid FROM records WHERE cid = ${cid} AND rid > ${to}`,
      "scan_next_rid",
    );
    return { records, cursor: cursorBefore(next.rows[0]?.rid ?? null) };
  };
}
