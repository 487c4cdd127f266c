/**
 * @module read
 * Record reads: by key, by query (compiled to SQL by `@records-service/sql`), by reference, and the
 * per-type summary. Only the rows returned are parsed from JSON.
 */
import { DATA_EVENT_TYPE, dataBudget, requireDateCuts, requireFieldNames, type DateCut, type DisplayValueRow, type FieldCountRow, type FieldValuesRow, type ScanQuery, type ListPage, type ListQuery, type RecordKey, type StoredRecord, type TypeSummary } from "@records-service/core";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Catalog } from "./catalog.js";
import { countPlan, lazyWhere, fieldCountsStatement, fieldValuesStatement, idsByType, inAskedOrder, listedRecordFromRow, pagePlan, pageStatement, recordFromRow, sortNumbersProbe, statesHeld, toFieldCountRows, toFieldValuesRow, type FieldIdLookup, type RecordRow } from "@records-service/sql";
import { compiler } from "./compiler.js";
import { createFieldIndexes, type FieldIndexes } from "./field-indexes.js";
import type { Db } from "./open.js";
import { records } from "./schema.js";
import { createStatementCache } from "./statement-cache.js";

export type { RecordRow } from "@records-service/sql";

/** The record reads of one connection. */
export interface RecordReader {
  getRecord(flock: string, type: string, id: string): StoredRecord | undefined;
  getRecords(flock: string, keys: RecordKey[]): StoredRecord[];
  /** The display values of `getRecords`'s records, without reading their data. */
  getDisplayValues(flock: string, keys: RecordKey[]): DisplayValueRow[];
  /** The page's rows, data still JSON text (see `listedRecords`), and the total. */
  listRecordRows(flock: string, type: string, query: ListQuery): ListPage<RecordRow>;
  listReferencing(flock: string, uri: string, limit: number, maxDataLength?: number): StoredRecord[];
  listFieldValues(flock: string, type: string, query: ScanQuery, fields: readonly string[], limit: number): FieldValuesRow[];
  countFieldValues(flock: string, type: string, query: ScanQuery, fields: readonly string[], cuts?: readonly (DateCut | undefined)[]): FieldCountRow[];
  summarizeTypes(flock: string): TypeSummary[];
}

/** The stored record of a row (see `recordFromRow`). */
export function toStoredRecord(row: RecordRow, flock: string, type: string): StoredRecord {
  return recordFromRow(row, flock, type);
}

/**
 * The stored records of a page's `rows`, each parsed only when its data is first read
 * (`listedRecordFromRow`): the list answer writes the stored text as it is, and a reader of
 * the data pays for the parse where it reads (the list answer gives the event loop a turn
 * between slices of a large page, as this did while it parsed).
 *
 * @example
 * const { total, records: rows } = reader.listRecordRows(flock, type, query);
 * const records = listedRecords(rows, flock, type);
 */
export function listedRecords(rows: readonly RecordRow[], flock: string, type: string): StoredRecord[] {
  return rows.map((row) => listedRecordFromRow(row, flock, type));
}

/**
 * The reader for one connection. With `generation` (the connection's change generation,
 * change-watch), collections' kept counts are read once per generation.
 */
export function createRecordReader(
  db: Db,
  catalog: Catalog,
  generation?: () => number,
  sources: FieldIndexes["source"] = createFieldIndexes(db.$client, catalog, generation).source,
): RecordReader {
  const prepared = createStatementCache(db.$client);
  const p = (name: string) => sql.placeholder(name);
  const rowColumns = {
    id: records.id,
    state: records.state,
    data: records.data,
    displayValue: records.displayValue,
    created: records.created,
    lastUpdated: records.lastUpdated,
    version: records.version,
  };

  const selOne = db
    .select(rowColumns)
    .from(records)
    .where(and(eq(records.cid, p("cid")), eq(records.id, p("id"))))
    .prepare();
  // Many ids as one JSON parameter: one prepared statement, where drizzle built and SQLite
  // prepared a new one with a placeholder per id (an import asks 5,000 a batch: ~10 µs an id).
  // `+cid`: the id's unique index finds each row, the collection only checks it.
  const selByIds = db.$client.prepare<[number, string], RecordRow>(
    `SELECT id, state, data, display_value AS displayValue, created, last_updated AS lastUpdated, version
     FROM records WHERE +cid = ? AND id IN (SELECT value FROM json_each(?))`,
  );
  // Correlated subqueries (drizzle leaves a lone table's columns unqualified, so plain SQL):
  // the kept counts, and max(last_updated) from the (cid, last_updated) index.
  const selSummary = db.$client.prepare<[string], { name: string; count: number; lastModified: string | null }>(
    `SELECT c.type AS name,
       (SELECT coalesce(sum(cc.n), 0) FROM collection_counts cc WHERE cc.cid = c.cid AND cc.state <> 'deleted') AS count,
       (SELECT max(r.last_updated) FROM records r WHERE r.cid = c.cid) AS lastModified
     FROM collections c WHERE c.flock = ? ORDER BY c.type`,
  );
  const selCounts = db.$client.prepare<[number], { state: string; n: number }>(
    "SELECT state, n FROM collection_counts WHERE cid = ?",
  );
  // A collection's kept counts by state, kept while the change generation stays (any write moves it).
  const kept = new Map<number, Map<string, number>>();
  let keptAt = -1;
  const keptCounts = (cid: number): ReadonlyMap<string, number> => {
    const g = generation?.();
    if (g !== keptAt) {
      kept.clear();
      keptAt = g ?? -1;
    }
    let counts = kept.get(cid);
    if (!counts) {
      counts = readCounts(cid);
      if (g !== undefined) kept.set(cid, counts);
    }
    return counts;
  };
  /** The kept counts as the current read sees them. */
  const readCounts = (cid: number): Map<string, number> => new Map(selCounts.all(cid).map((c) => [c.state, c.n]));

  const rowsOf = (query: SQL): RecordRow[] => {
    const { statement, params } = prepared(query);
    return statement.all(...params) as RecordRow[];
  };

  /** A page's rows, read one by one so that reading stops at the first row past `maxDataLength`. */
  const pageRowsOf = (query: SQL, maxDataLength: number | undefined): RecordRow[] => {
    if (maxDataLength === undefined) return rowsOf(query);
    const { statement, params } = prepared(query);
    const take = dataBudget(maxDataLength);
    const rows: RecordRow[] = [];
    for (const row of statement.iterate(...params) as IterableIterator<RecordRow>) {
      take(row.data.length);
      rows.push(row);
    }
    return rows;
  };

  const countOf = (query: SQL): number => {
    const { statement, params } = prepared(query);
    return (statement.get(...params) as { n: number }).n;
  };

  /** The number of matches (see `countPlan`), planned on `counts`. */
  const count = (cid: number, query: ListQuery, where: () => SQL, fieldId: FieldIdLookup, counts: ReadonlyMap<string, number>): number => {
    const plan = countPlan(compiler, cid, query, where, fieldId, counts);
    if (plan.kind === "kept") return plan.total;
    if (plan.kind === "count") return countOf(plan.sql);
    return countOf(plan.every) - countOf(plan.deleted);
  };

  // The count, the probe and the page in one read transaction: one snapshot (the total is
  // the page's), and one begin and end of a read instead of one per statement (each costs
  // about what a small indexed lookup does: the WAL's shared-memory lock and its release).
  const listInOneRead = db.$client.transaction((flock: string, type: string, listQuery: ListQuery): ListPage<RecordRow> => {
    const cid = catalog.collectionId(flock, type);
    if (cid === undefined) return { total: 0, records: [] };
    // A filtered first page is read before its total: the first page is the same whatever
    // the total, and one shorter than the page size holds every match, so its length is the
    // total and the count (a second walk of the matches) is not asked. Without filters the
    // kept counts give the total for nothing.
    const pageFirst = listQuery.page === 1 && listQuery.pageSize > 0 && listQuery.filters.length > 0;
    // No state test where the collection holds no record of the states left out: a live
    // page then passes over records by index alone. Only on counts of this read's own
    // snapshot: the remembered ones follow the change generation, which sees another
    // process's commit only at the next sync or recheck, so they are read again here
    // whenever they would drop the test. Not for a filtered first page: it reads the row of
    // each record it passes over, where the state test costs nothing.
    let fresh: Map<string, number> | undefined;
    const freshCounts = () => (fresh ??= readCounts(cid));
    let query = pageFirst ? listQuery : statesHeld(listQuery, keptCounts(cid));
    if (query !== listQuery) query = statesHeld(listQuery, freshCounts());
    // The fields the compiled statements read from the records' data (not indexed) are noted.
    const scanned = new Set<string>();
    const source = sources(cid, flock, type);
    const fieldId: FieldIdLookup = (name) => {
      const s = source(name);
      if (typeof s === "object") scanned.add(name);
      return s;
    };
    const where = lazyWhere(compiler, cid, query, fieldId);
    const note = () => (scanned.size === 0 ? {} : { scanned: { fields: [...scanned], collection: _sum(keptCounts(cid)) } });
    const numbers = () => {
      const probe = sortNumbersProbe(query, fieldId);
      const asked = probe && prepared(probe);
      return !asked || asked.statement.get(...asked.params) !== undefined;
    };
    // A filtered count is planned on this read's counts too: planned on remembered ones
    // that miss another process's delete, it would count a deleted match (the page would
    // not show it). An unfiltered total takes this read's counts when they were read.
    const total = () => count(cid, query, where, fieldId, query.filters.length > 0 ? freshCounts() : (fresh ?? keptCounts(cid)));
    if (pageFirst) {
      const first = pageRowsOf(pageStatement(compiler, cid, query, where, fieldId, { limit: query.pageSize, offset: 0, fromEnd: false }, numbers()), query.maxDataLength);
      return { total: first.length < query.pageSize ? first.length : total(), records: first, ...note() };
    }
    const matches = total();
    const at = pagePlan(query, matches);
    if (!at) return { total: matches, records: [], ...note() };
    const rows = pageRowsOf(pageStatement(compiler, cid, query, where, fieldId, at, numbers()), query.maxDataLength);
    if (at.fromEnd) rows.reverse();
    return { total: matches, records: rows, ...note() };
  });

  return {
    getRecord(flock, type, id) {
      const cid = catalog.collectionId(flock, type);
      const row = cid === undefined ? undefined : selOne.get({ cid, id });
      // Parsed when first read: the single-record answer splices the stored text when it can.
      return row ? listedRecordFromRow(row, flock, type) : undefined;
    },

    getRecords(flock, keys) {
      const found = new Map<string, StoredRecord>();
      for (const [type, ids] of idsByType(keys)) {
        const cid = catalog.collectionId(flock, type);
        if (cid === undefined) continue;
        for (const row of selByIds.all(cid, JSON.stringify([...ids]))) found.set(`${type}/${row.id}`, toStoredRecord(row, flock, type));
      }
      return inAskedOrder(keys, found);
    },

    getDisplayValues(flock, keys) {
      const out: DisplayValueRow[] = [];
      for (const [type, ids] of idsByType(keys)) {
        const cid = catalog.collectionId(flock, type);
        if (cid === undefined) continue;
        const rows = db
          .select({ id: records.id, displayValue: records.displayValue })
          .from(records)
          .where(and(_byIdInCollection(cid), inArray(records.id, [...ids])))
          .all();
        for (const row of rows) out.push({ type, id: row.id, displayValue: row.displayValue });
      }
      return out;
    },

    listRecordRows: (flock, type, query) => listInOneRead(flock, type, query),

    listFieldValues(flock, type, query, fields, limit) {
      requireFieldNames(fields);
      const cid = catalog.collectionId(flock, type);
      if (cid === undefined || limit <= 0) return [];
      const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, sources(cid, flock, type));
      const { statement, params } = prepared(fieldValuesStatement(compiler.dialect, where, fields, limit));
      return (statement.all(...params) as Record<string, unknown>[]).map((row) => toFieldValuesRow(row, fields));
    },

    countFieldValues(flock, type, query, fields, cuts) {
      requireFieldNames(fields);
      requireDateCuts(cuts, fields.length);
      const cid = catalog.collectionId(flock, type);
      if (cid === undefined) return [];
      const where = compiler.where(cid, { ...query, page: 1, pageSize: 0 }, sources(cid, flock, type));
      const { statement, params } = prepared(fieldCountsStatement(compiler.dialect, where, fields, cuts));
      return toFieldCountRows(statement.all(...params) as Record<string, unknown>[], fields, cuts);
    },

    listReferencing(flock, uri, limit, maxDataLength) {
      if (limit <= 0) return [];
      // No data event (core's keepsReferences), also where an older version kept its rows.
      const rows = pageRowsOf(
        sql`SELECT c.type, r.id, r.state, r.data, r.display_value AS displayValue, r.created, r.last_updated AS lastUpdated, r.version
            FROM record_refs f JOIN records r ON r.rid = f.rid JOIN collections c ON c.cid = r.cid
            WHERE f.target = ${uri} AND c.flock = ${flock} AND c.type <> ${DATA_EVENT_TYPE} ORDER BY r.rid LIMIT ${limit}`,
        maxDataLength,
      ) as (RecordRow & { type: string })[];
      return rows.map((row) => toStoredRecord(row, flock, row.type));
    },

    summarizeTypes(flock) {
      return selSummary
        .all(flock)
        .filter((s) => s.lastModified !== null)
        .map((s) => ({ name: s.name, count: s.count, lastModified: s.lastModified! }));
    },
  };
}

function _sum(counts: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const c of counts.values()) n += c;
  return n;
}

/**
 * `cid = ?` written so that it cannot be answered by an index: beside `id IN (...)`,
 * SQLite's planner (no ANALYZE statistics) otherwise walks `records_cid_idx`, i.e. every
 * record of the collection, instead of one `records_id_idx` probe per id (32 ms instead of
 * 1 ms for 1,000 ids at 100k records; query-plan.test.ts pins it).
 */
function _byIdInCollection(cid: number): SQL {
  return sql`+${records.cid} = ${cid}`;
}
