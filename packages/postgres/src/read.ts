/**
 * @module read
 * Record reads: by key, by query (compiled by the shared compiler with PostgreSQL's
 * expressions), by reference, and the per-type summary. How a total is counted and which
 * end a page is read from are `@records-service/sql`'s plans (read-plan.ts); this file runs them.
 */
import {
  DATA_EVENT_TYPE,
  dataBudget,
  LIST_ELEMENT_MIN_OVERHEAD,
  requireDateCuts,
  requireFieldNames,
  type DateCut,
  type DisplayValueRow,
  type FieldCountRow,
  type FieldValuesRow,
  type ScanQuery,
  type ListPage,
  type ListQuery,
  type RecordKey,
  type StoredRecord,
  type TypeSummary,
} from "@records-service/core";
import {
  countPlan,
  lazyWhere,
  createQueryCompiler,
  fieldCountsStatement,
  fieldValuesStatement,
  filterFields,
  idsByType,
  inAskedOrder,
  pagePlan,
  pageStatement,
  postgresDialect,
  listedRecordFromRow,
  recordFromRow,
  sortNumbersProbe,
  toFieldCountRows,
  toFieldValuesRow,
  type FieldIdLookup,
  type RecordRow,
} from "@records-service/sql";
import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import type { Catalog } from "./catalog.js";
import { exec, type Conn } from "./exec.js";
import { createFieldIndexes, type FieldIndexes } from "./field-indexes.js";
import { decodeText, encodeText } from "./text-codec.js";

export type { RecordRow } from "@records-service/sql";

/** List queries as PostgreSQL SQL over `records r` and `record_values`. */
export const compiler = createQueryCompiler(postgresDialect);

/** The record reads. */
export interface RecordReader {
  getRecord(flock: string, type: string, id: string): Promise<StoredRecord | undefined>;
  getRecords(flock: string, keys: RecordKey[]): Promise<StoredRecord[]>;
  getDisplayValues(flock: string, keys: RecordKey[]): Promise<DisplayValueRow[]>;
  listRecords(flock: string, type: string, query: ListQuery): Promise<ListPage<StoredRecord>>;
  listReferencing(flock: string, uri: string, limit: number, maxDataLength?: number): Promise<StoredRecord[]>;
  listFieldValues(flock: string, type: string, query: ScanQuery, fields: readonly string[], limit: number): Promise<FieldValuesRow[]>;
  countFieldValues(flock: string, type: string, query: ScanQuery, fields: readonly string[], cuts?: readonly (DateCut | undefined)[]): Promise<FieldCountRow[]>;
  summarizeTypes(flock: string): Promise<TypeSummary[]>;
}

/** The columns of a `RecordRow` from `records r`. */
export const RECORD_COLUMNS = sql.raw(
  `r.id, r.state, r.data, r.display_value AS "displayValue", r.created, r.last_updated AS "lastUpdated", r.version`,
);

/**
 * `query` (rows in a fixed order, each with a `data` column) cut by the server soon after
 * its rows' data passes `maxDataLength`, so a page of large records is not sent whole. The
 * server counts characters (code points), never more than JS's UTF-16 length, and keeps
 * one row past the first that passes: the caller's exact check (`dataBudget`, or a scan's
 * cut) always sees the row where it stops, and the row after it. The window runs over the
 * subquery's rows in their ORDER BY order, as PostgreSQL reads them, and the rows keep it.
 *
 * @example
 * const { rows } = await exec<RecordRow>(pool, upToDataLength(compiler.page(where, at), 1_000_000));
 */
export function upToDataLength(query: SQL, maxDataLength: number): SQL {
  const max = Math.max(0, Math.floor(maxDataLength));
  return sql`SELECT * FROM (
      SELECT q.*, sum(char_length(q.data) + ${sql.raw(String(LIST_ELEMENT_MIN_OVERHEAD))})
        OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) AS "dataBefore",
        row_number() OVER () AS "readOrder"
      FROM (${query}) q) b
    WHERE coalesce(b."dataBefore", 0) <= ${max} ORDER BY b."readOrder"`;
}

/** A list page's (or a get's) record of a row, its data parsed when first read (see `listedRecordFromRow`). */
function listedRecord(row: RecordRow, flock: string, type: string): StoredRecord {
  return listedRecordFromRow(row, flock, type, decodeText);
}

/** The stored record of a row, its display value decoded (see `recordFromRow`). */
export function toStoredRecord(row: RecordRow, flock: string, type: string): StoredRecord {
  return recordFromRow(row, flock, type, decodeText);
}

/**
 * The reader over `pool`. With `generation` (the change watch's), a collection's kept counts
 * are read once and answered from memory until the database may have changed: a list then
 * costs one statement (a first page and its count together; a later page, its count and
 * its page), not a round trip more.
 */
export function createRecordReader(
  pool: pg.Pool,
  catalog: Catalog,
  generation?: () => number,
  sources: FieldIndexes["sources"] = createFieldIndexes(pool, catalog, generation).sources,
): RecordReader {
  const rowsOf = async (query: SQL, name?: string): Promise<RecordRow[]> => (await exec<RecordRow>(pool, query, name)).rows;
  /** A page's rows, refused with `answer too large` at the first row past `maxDataLength`. */
  const pageRowsOf = async (query: SQL, maxDataLength: number | undefined, name?: string): Promise<RecordRow[]> => {
    if (maxDataLength === undefined) return rowsOf(query, name);
    const rows = await rowsOf(upToDataLength(query, maxDataLength), name && `${name}_bounded`);
    const take = dataBudget(maxDataLength);
    for (const row of rows) take(row.data.length);
    return rows;
  };
  const countOf = async (c: Conn, query: SQL): Promise<number> => Number((await exec<{ n: string }>(c, query)).rows[0]!.n);
  const keptCounts = _keptCounts(pool, generation);

  /** The number of matches (see `countPlan`). */
  const count = async (cid: number, query: ListQuery, where: () => SQL, fieldId: FieldIdLookup): Promise<number> => {
    const plan = countPlan(compiler, cid, query, where, fieldId, await keptCounts(cid));
    if (plan.kind === "kept") return plan.total;
    if (plan.kind === "count") return countOf(pool, plan.sql);
    return (await countOf(pool, plan.every)) - (await countOf(pool, plan.deleted));
  };

  /**
   * The first page and the total in one statement, when the total takes counting (the
   * first page is the same whatever the total: read from the start, at most a page): the
   * total's one row joined to the page, so both read one snapshot. Undefined when the
   * kept counts answer the total (the page alone is one statement then) or for a later page.
   */
  const firstPage = async (cid: number, query: ListQuery, where: () => SQL, fieldId: FieldIdLookup): Promise<{ total: number; rows: RecordRow[] } | undefined> => {
    if (query.page !== 1 || query.pageSize <= 0) return undefined;
    const plan = countPlan(compiler, cid, query, where, fieldId, await keptCounts(cid));
    if (plan.kind === "kept") return undefined;
    const total =
      plan.kind === "count" ? sql`(SELECT n FROM (${plan.sql}) c)` : sql`((SELECT n FROM (${plan.every}) e) - (SELECT n FROM (${plan.deleted}) d))`;
    const page = pageStatement(compiler, cid, query, where, fieldId, { limit: query.pageSize, offset: 0, fromEnd: false });
    const bounded = query.maxDataLength === undefined ? page : upToDataLength(page, query.maxDataLength);
    const { rows } = await exec<RecordRow & { total: string; id: string | null }>(
      pool,
      sql`SELECT t.total, p.* FROM (SELECT ${total} AS total) t
          LEFT JOIN LATERAL (SELECT q.*, row_number() OVER () AS "pageOrder" FROM (${bounded}) q) p ON true
          ORDER BY p."pageOrder"`,
    );
    const found = rows.filter((row) => row.id !== null);
    if (query.maxDataLength !== undefined) {
      const take = dataBudget(query.maxDataLength);
      for (const row of found) take(row.data.length);
    }
    return { total: Number(rows[0]!.total), rows: found };
  };

  return {
    async getRecord(flock, type, id) {
      const cid = await catalog.collectionId(pool, flock, type);
      if (cid === undefined) return undefined;
      const rows = await rowsOf(sql`SELECT ${RECORD_COLUMNS} FROM records r WHERE r.cid = ${cid} AND r.id = ${id}`, "get_record");
      // Parsed when first read: the single-record answer splices the stored text when it can.
      return rows[0] && listedRecord(rows[0], flock, type);
    },

    async getRecords(flock, keys) {
      const found = new Map<string, StoredRecord>();
      for (const [type, ids] of idsByType(keys)) {
        const cid = await catalog.collectionId(pool, flock, type);
        if (cid === undefined) continue;
        const rows = await rowsOf(
          sql`SELECT ${RECORD_COLUMNS} FROM records r WHERE r.cid = ${cid} AND r.id = ANY(${sql.param([...ids])}::text[])`,
          "get_records",
        );
        for (const row of rows) found.set(`${type}/${row.id}`, toStoredRecord(row, flock, type));
      }
      return inAskedOrder(keys, found);
    },

    async getDisplayValues(flock, keys) {
      const out: DisplayValueRow[] = [];
      for (const [type, ids] of idsByType(keys)) {
        const cid = await catalog.collectionId(pool, flock, type);
        if (cid === undefined) continue;
        const { rows } = await exec<{ id: string; displayValue: string }>(
          pool,
          sql`SELECT r.id, r.display_value AS "displayValue" FROM records r WHERE r.cid = ${cid} AND r.id = ANY(${sql.param([...ids])}::text[])`,
          "get_display_values",
        );
        for (const row of rows) out.push({ type, id: row.id, displayValue: decodeText(row.displayValue) });
      }
      return out;
    },

    async listRecords(flock, type, query) {
      const cid = await catalog.collectionId(pool, flock, type);
      if (cid === undefined) return { total: 0, records: [] };
      const source = await sources(cid, flock, type, filterFields(query));
      // The fields answered by a scan, which the engine counts as demand for their index.
      const scanned = new Set<string>();
      const fieldId: FieldIdLookup = (name) => {
        const s = source(name);
        if (typeof s === "object") scanned.add(name);
        return s;
      };
      const where = lazyWhere(compiler, cid, query, fieldId);
      const note = async () => (scanned.size === 0 ? {} : { scanned: { fields: [...scanned], collection: _sum(await keptCounts(cid)) } });
      const probe = sortNumbersProbe(query, fieldId);
      const first = probe === undefined ? await firstPage(cid, query, where, fieldId) : undefined;
      if (first) return { total: first.total, records: first.rows.map((row) => listedRecord(row, flock, type)), ...(await note()) };
      const total = await count(cid, query, where, fieldId);
      const at = pagePlan(query, total);
      if (!at) return { total, records: [], ...(await note()) };
      const numbers = probe === undefined || (await exec(pool, probe, "sort_numbers")).rows.length > 0;
      const rows = await pageRowsOf(pageStatement(compiler, cid, query, where, fieldId, at, numbers), query.maxDataLength);
      if (at.fromEnd) rows.reverse();
      return { total, records: rows.map((row) => listedRecord(row, flock, type)), ...(await note()) };
    },

    async listFieldValues(flock, type, query, fields, limit) {
      requireFieldNames(fields);
      const cid = await catalog.collectionId(pool, flock, type);
      if (cid === undefined || limit <= 0) return [];
      const fieldId = await sources(cid, flock, type, filterFields(query));
      const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, fieldId);
      const { rows } = await exec<Record<string, unknown>>(pool, fieldValuesStatement(compiler.dialect, where, fields, limit));
      return rows.map((row) => toFieldValuesRow(row, fields));
    },

    async countFieldValues(flock, type, query, fields, cuts) {
      requireFieldNames(fields);
      requireDateCuts(cuts, fields.length);
      const cid = await catalog.collectionId(pool, flock, type);
      if (cid === undefined) return [];
      const fieldId = await sources(cid, flock, type, filterFields(query));
      const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, fieldId);
      const { rows } = await exec<Record<string, unknown>>(pool, fieldCountsStatement(compiler.dialect, where, fields, cuts));
      return toFieldCountRows(rows, fields, cuts);
    },

    async listReferencing(flock, uri, limit, maxDataLength) {
      if (limit <= 0) return [];
      // No data event (core's keepsReferences), also where an older version kept its rows.
      const rows = (await pageRowsOf(
        sql`SELECT c.type, ${RECORD_COLUMNS}
            FROM record_refs f JOIN records r ON r.rid = f.rid JOIN collections c ON c.cid = r.cid
            WHERE f.target = ${encodeText(uri)} AND c.flock = ${flock} AND c.type <> ${DATA_EVENT_TYPE} ORDER BY r.rid LIMIT ${Math.floor(limit)}`,
        maxDataLength,
        "list_referencing",
      )) as (RecordRow & { type: string })[];
      return rows.map((row) => toStoredRecord(row, flock, row.type));
    },

    async summarizeTypes(flock) {
      const { rows } = await exec<{ name: string; count: string; lastModified: string | null }>(
        pool,
        sql`SELECT c.type AS name,
              (SELECT coalesce(sum(cc.n), 0) FROM collection_counts cc WHERE cc.cid = c.cid AND cc.state <> 'deleted') AS count,
              (SELECT max(r.last_updated) FROM records r WHERE r.cid = c.cid) AS "lastModified"
            FROM collections c WHERE c.flock = ${flock} ORDER BY c.type`,
        "summarize_types",
      );
      return rows
        .filter((s) => s.lastModified !== null)
        .map((s) => ({ name: s.name, count: Number(s.count), lastModified: s.lastModified! }));
    },
  };
}

// --- internal ---

/** A collection's kept counts by state; cached per change generation when there is one. */
function _sum(counts: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const c of counts.values()) n += c;
  return n;
}

function _keptCounts(pool: pg.Pool, generation: (() => number) | undefined): (cid: number) => Promise<Map<string, number>> {
  const cache = new Map<number, Map<string, number>>();
  let seen = -1;
  return async (cid) => {
    const g = generation?.();
    if (g !== undefined && g !== seen) {
      seen = g;
      cache.clear();
    }
    const hit = cache.get(cid);
    if (hit) return hit;
    const { rows } = await exec<{ state: string; n: number }>(pool, sql`SELECT state, n FROM collection_counts WHERE cid = ${cid}`, "kept_counts");
    const kept = new Map(rows.map((c) => [c.state, c.n]));
    // Kept only if nothing was written while it was read (a write moves the generation).
    if (g !== undefined && generation!() === g) cache.set(cid, kept);
    return kept;
  };
}
