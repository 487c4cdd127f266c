/**
 * @module read-plan
 * The decisions both adapters' record reads make the same way, as pure functions over the
 * compiler's statements: how a list's total is counted, which page is read from which end,
 * how a scan step's rows become records and a cursor, and the order of keyed reads. The
 * adapters only run the statements (SQLite synchronously, PostgreSQL over a pool).
 */
import type { SQL } from "drizzle-orm";
import { sql } from "./sql-tag.js";
import { badRequest, cutDates, fieldValuesKey, type DateCut, LIST_ELEMENT_MIN_OVERHEAD, type FieldCountRow, type FieldValuesRow, type ListQuery, type RecordKey, type RecordState } from "@records-service/core";
import type { SqlDialect } from "./dialects.js";
import { indexedFid, type FieldIdLookup, type PageSpec, type QueryCompiler } from "./compile.js";
import { orderTerms } from "./order.js";

/**
 * Up to this many deleted records in a collection, a live-only count is the count of every
 * match less the deleted ones, found by walking the deleted records (one probe each);
 * beyond it, each match's state is probed instead.
 */
export const FEW_DELETED = 1000;

const _STATES: readonly RecordState[] = ["updated", "deleted"];

/**
 * How a list's total is found: `kept` (the collection's kept counts answer it), `count`
 * (one statement), or `difference` (every match less the deleted matches).
 */
export type CountPlan = { kind: "kept"; total: number } | { kind: "count"; sql: SQL } | { kind: "difference"; every: SQL; deleted: SQL };

/**
 * `query` with the states its collection holds no record of added to those it shows, given
 * the collection's kept counts: a live-only list of a collection with no deleted record is
 * every record, so its WHERE tests no state, and a page walks `records_cid_idx` without
 * reading the rows it passes over (no index holds the live records alone since SQLite's
 * migration 0016). Only for counts read in the page's own snapshot (SQLite's one read).
 *
 * @example
 * statesHeld(query, new Map([["updated", 10]])).states // ["updated", "deleted"]
 */
export function statesHeld(query: ListQuery, kept: ReadonlyMap<string, number>): ListQuery {
  const absent = _STATES.filter((s) => !query.states.includes(s) && !kept.get(s));
  return absent.length === 0 ? query : { ...query, states: [...query.states, ...absent] };
}

/**
 * `compiler.where(cid, query, fieldId)`, built on the first call and kept: the list plans
 * below ask for it only when they need it (an equality page and its count never do).
 *
 * @example
 * const where = lazyWhere(compiler, cid, query, fieldId);
 * const plan = countPlan(compiler, cid, query, where, fieldId, kept);
 */
export function lazyWhere(compiler: QueryCompiler, cid: number, query: ListQuery, fieldId: FieldIdLookup): () => SQL {
  let built: SQL | undefined;
  return () => (built ??= compiler.where(cid, query, fieldId));
}

/**
 * The count of `query`'s matches in collection `cid`, given its kept counts by state: the
 * kept counts when unfiltered; else, when the filters can be counted from `record_values`
 * alone, that count less the deleted matches (when there are few); else `count(*)` of the
 * WHERE (`where()`, see `lazyWhere`), which probes each match's state in `records`.
 *
 * @example
 * const plan = countPlan(compiler, cid, query, lazyWhere(compiler, cid, query, fieldId), fieldId, new Map([["updated", 10]]));
 */
export function countPlan(
  compiler: QueryCompiler,
  cid: number,
  query: ListQuery,
  where: () => SQL,
  fieldId: FieldIdLookup,
  kept: ReadonlyMap<string, number>,
): CountPlan {
  if (query.filters.length === 0) {
    let total = 0;
    for (const [state, k] of kept) if ((query.states as string[]).includes(state)) total += k;
    return { kind: "kept", total };
  }
  const deleted = kept.get("deleted") ?? 0;
  const showsDeleted = query.states.includes("deleted");
  const fast = query.states.includes("updated") && (showsDeleted || deleted <= FEW_DELETED);
  const every = fast ? compiler.matchCount(query, fieldId) : undefined;
  if (every === undefined) return { kind: "count", sql: compiler.count(where()) };
  if (showsDeleted || deleted === 0) return { kind: "count", sql: every };
  const deletedWhere = compiler.where(cid, { ...query, states: ["deleted"] }, fieldId, "probe");
  return { kind: "difference", every, deleted: compiler.count(deletedWhere) };
}

/**
 * The page of `query` among `total` matches, or undefined when it is empty. Past the
 * middle the page is read from the end (the caller reverses its rows), so the last page
 * costs what the first does.
 */
export function pagePlan(query: Pick<ListQuery, "page" | "pageSize">, total: number): PageSpec | undefined {
  const offset = (query.page - 1) * query.pageSize;
  if (offset >= total || query.pageSize <= 0) return undefined;
  const limit = Math.min(query.pageSize, total - offset);
  const fromEnd = total - offset - limit;
  return fromEnd < offset ? { limit, offset: fromEnd, fromEnd: true } : { limit, offset, fromEnd: false };
}

/**
 * The statement asking whether a record of the collection holds a number in the data field
 * `query` sorts by (a row `found` when one does; one probe of the value index's number
 * index), or undefined when the page does not sort by a data field that any record has.
 * Its answer is `pageStatement`'s `numbers`.
 */
export function sortNumbersProbe(query: Pick<ListQuery, "sort">, fieldId: FieldIdLookup): SQL | undefined {
  const sort = query.sort;
  // A scanned field is not probed: its sort keeps the number key (right either way).
  const fid = sort && !sort.meta ? indexedFid(fieldId(sort.field)) : undefined;
  return fid === undefined ? undefined : sql`SELECT 1 AS found FROM record_values WHERE fid = ${fid} AND num IS NOT NULL LIMIT 1`;
}

/**
 * The statement of one page of `query`: in `query.sort`'s order when given (see order.ts;
 * `numbers` is what `sortNumbersProbe` found, true when not asked), else the equality fast
 * path when it fits, else the WHERE's page (`where()`, see `lazyWhere`) in insertion order.
 */
export function pageStatement(compiler: QueryCompiler, cid: number, query: ListQuery, where: () => SQL, fieldId: FieldIdLookup, at: PageSpec, numbers = true): SQL {
  const sort = query.sort;
  if (sort) return compiler.page(where(), at, orderTerms(compiler.dialect, sort, sort.meta ? undefined : fieldId(sort.field), at.fromEnd, numbers));
  return compiler.equalityPage(cid, query, fieldId, at) ?? compiler.page(where(), at);
}

/** The wanted ids grouped by type, each once. */
export function idsByType(keys: readonly RecordKey[]): Map<string, Set<string>> {
  const byType = new Map<string, Set<string>>();
  for (const k of keys) {
    let ids = byType.get(k.type);
    if (!ids) byType.set(k.type, (ids = new Set()));
    ids.add(k.id);
  }
  return byType;
}

/** The records of `found` (keyed `type/id`) in the order `keys` asks for them, each once. */
export function inAskedOrder<T>(keys: readonly RecordKey[], found: ReadonlyMap<string, T>): T[] {
  const out = new Map<string, T>();
  for (const k of keys) {
    const key = `${k.type}/${k.id}`;
    const r = found.get(key);
    if (r !== undefined) out.set(key, r);
  }
  return [...out.values()];
}

// --- field values ---

/**
 * The statement of `listFieldValues`: each match's id and its fields as JSON text (columns
 * `f0`, `f1`, ...), in insertion order, at most `limit`. Where the dialect cannot pick a
 * row's fields (`dataFieldFallback`), the row's data comes whole (column `whole`) instead.
 */
export function fieldValuesStatement(dialect: SqlDialect, where: SQL, fields: readonly string[], limit: number): SQL {
  const fallback = _fallback(dialect, fields);
  const pick = _picker(dialect);
  const columns = fields.map((f, i) => sql`, ${pick(f)} AS ${sql.raw(`f${i}`)}`);
  if (fallback) columns.push(sql`, CASE WHEN ${fallback} THEN r.data END AS whole`);
  return sql`SELECT r.id${sql.join(columns)} FROM records r WHERE ${where} ORDER BY r.rid LIMIT ${Math.max(0, Math.floor(limit))}`;
}

/** A `fieldValuesStatement` row as a `FieldValuesRow`: NULL (no such field) is undefined, JSON text its value. */
export function toFieldValuesRow(row: Record<string, unknown>, fields: readonly string[]): FieldValuesRow {
  if (typeof row.whole === "string") {
    const data = JSON.parse(row.whole) as Record<string, unknown>;
    const picked = (f: string, i: number) => (_META_COLUMNS[f] ? JSON.parse(row[`f${i}`] as string) : Object.hasOwn(data, f) ? data[f] : undefined);
    return { id: row.id as string, values: fields.map(picked) };
  }
  const values: unknown[] = [];
  for (let i = 0; i < fields.length; i++) {
    const text = row[`f${i}`];
    values.push(typeof text === "string" ? JSON.parse(text) : undefined);
  }
  return { id: row.id as string, values };
}

/**
 * The statement of `countFieldValues`: one row per distinct combination of the fields' JSON
 * text (columns `f0`, `f1`, ...) with its count `n` and first rid `first`, in `first`
 * order. Where the dialect cannot pick a row's fields (`dataFieldFallback`), each such row
 * is a group of its own whose data comes whole (column `whole`), to be picked and merged in
 * JS (`toFieldCountRows`). Groups by position: PostgreSQL does not match a select
 * expression to a repeated one whose parameters are numbered apart.
 */
export function fieldCountsStatement(dialect: SqlDialect, where: SQL, fields: readonly string[], cuts?: readonly (DateCut | undefined)[]): SQL {
  const fallback = _fallback(dialect, fields);
  const pick = _picker(dialect);
  const keys = fields.map((f, i) => {
    const cut = cuts?.[i];
    return sql`${cut === undefined ? pick(f) : _cutDates(dialect, pick(f), cut, !_META_COLUMNS[f])} AS ${sql.raw(`f${i}`)}`;
  });
  if (fallback) keys.push(sql`CASE WHEN ${fallback} THEN r.rid END AS lone`);
  const whole = fallback ? sql`, min(CASE WHEN ${fallback} THEN r.data END) AS whole` : sql``;
  const select = keys.length > 0 ? sql`${sql.join(keys, sql`, `)}, ` : sql``;
  const groupBy = keys.length > 0 ? sql` GROUP BY ${sql.raw(keys.map((_, i) => String(i + 1)).join(", "))}` : sql``;
  return sql`SELECT ${select}count(*) AS n, min(r.rid) AS first${whole} FROM records r WHERE ${where}${groupBy} ORDER BY first`;
}

/**
 * `fieldCountsStatement` rows (in `first` order) as `FieldCountRow`s: NULL (no such field)
 * is undefined, JSON text its value; groups whose values are the same JSON (a row read
 * whole, or a number's text written two ways) are merged, at the first one's place.
 */
export function toFieldCountRows(rows: readonly Record<string, unknown>[], fields: readonly string[], cuts?: readonly (DateCut | undefined)[]): FieldCountRow[] {
  const out = new Map<string, FieldCountRow>();
  for (const row of rows) {
    const n = Number(row.n);
    if (n === 0) continue; // no match at all: an ungrouped count's one row
    const picked = toFieldValuesRow({ ...row, id: "" }, fields).values;
    // Cut again in JS: a no-op for what the SQL cut, and the cut of what it leaves (data read
    // whole, lists inside lists).
    const values = cuts === undefined ? picked : picked.map((v, i) => (cuts[i] === undefined ? v : cutDates(v, cuts[i])));
    const key = fieldValuesKey(values);
    const seen = out.get(key);
    if (seen) seen.count += n;
    else out.set(key, { values, count: n });
  }
  return [...out.values()];
}

/**
 * `json` (a field's JSON text) cut as `cutDates` cuts: a string starting with a date to its
 * first `length` characters, each entry of a list alike (a list inside a list is left to JS;
 * `lists` false for the record's own columns, never lists), anything else whole. The date's characters are ASCII and need no escape, so the JSON
 * text's prefix is the value's.
 */
function _cutDates(dialect: SqlDialect, json: SQL, length: DateCut, lists: boolean): SQL {
  const chars = sql.raw(String(length + 1));
  const scalar = (v: SQL) => sql`CASE WHEN ${dialect.startsWithDate(v)} THEN substr(${v}, 1, ${chars}) || '"' ELSE ${v} END`;
  if (!lists) return scalar(json);
  return sql`CASE WHEN ${dialect.startsWithDate(json)} THEN substr(${json}, 1, ${chars}) || '"' WHEN substr(${json}, 1, 1) = '[' THEN ${dialect.mapListEntries(json, scalar)} ELSE ${json} END`;
}

/** The record columns the field-value reads give for the meta field names (as filters do). */
const _META_COLUMNS: Readonly<Record<string, string | undefined>> = { id: "r.id", created: "r.created", last_updated: "r.last_updated" };

/**
 * The dialect's fallback (rows whose data is read whole) when a data field is asked for;
 * none when every field is a record column, which the data never holds: PostgreSQL then
 * need not search every match's data for `\u0000` (the cost of counting 10,000 persons by
 * `created` was mostly that).
 */
function _fallback(dialect: SqlDialect, fields: readonly string[]): SQL | undefined {
  return fields.some((f) => !_META_COLUMNS[f]) ? dialect.dataFieldFallback : undefined;
}

/** A field's value as JSON text: a meta column (hex id, timestamp: nothing to escape), else the data field (NULL where read whole). */
function _picker(dialect: SqlDialect): (f: string) => SQL {
  const fallback = dialect.dataFieldFallback;
  return (f) => {
    const meta = _META_COLUMNS[f];
    if (meta) return sql`'"' || ${sql.raw(meta)} || '"'`;
    return fallback ? sql`CASE WHEN ${fallback} THEN NULL ELSE ${dialect.dataField(f)} END` : dialect.dataField(f);
  };
}

// --- scans ---

/** The rid after which a scan step starts (0 for the first). */
export function scanCursorFrom(after: string | null): number {
  if (after === null) return 0;
  if (!/^\d{1,15}$/.test(after)) throw badRequest("invalid cursor", `'${after.slice(0, 40)}' is not a scan cursor`);
  return Number(after);
}

/**
 * The statement of one scan step: the matches of `where` with rid in `(from, to]`, in rid
 * order, one row more than `take` (it tells whether the walk goes on).
 */
export function scanStepStatement(where: SQL, columns: SQL, from: number, to: number, take: number): SQL {
  return sql`SELECT r.rid, ${columns} FROM records r WHERE ${where} AND r.rid > ${from} AND r.rid <= ${to} ORDER BY r.rid LIMIT ${take + 1}`;
}

/** A scan step's rows taken: the records' rows, and the cursor, or `window` when the window was walked. */
export interface ScanTake<R> {
  rows: R[];
  next: { cursor: string } | "window";
}

/**
 * The rows of a scan step (read in rid order, up to `take + 1`): a step of large records
 * ends at `maxDataLength` (the first row is always taken); one row past `take` means the
 * walk goes on from the last taken; otherwise the window is walked and the caller goes on
 * from the collection's next record past it.
 */
export function takeScanRows<R extends { rid: number | string; data: string }>(
  read: Iterable<R>,
  take: number,
  maxDataLength: number | undefined,
): ScanTake<R> {
  const rows: R[] = [];
  let length = 0;
  for (const row of read) {
    length += row.data.length + LIST_ELEMENT_MIN_OVERHEAD;
    if (maxDataLength !== undefined && rows.length > 0 && rows.length < take && length > maxDataLength) {
      return { rows, next: { cursor: String(rows.at(-1)!.rid) } };
    }
    rows.push(row);
  }
  if (rows.length > take) return { rows: rows.slice(0, take), next: { cursor: String(rows[take - 1]!.rid) } };
  return { rows, next: "window" };
}

/** The cursor after a walked window: before the collection's next rid, or null at its end. */
export function cursorBefore(nextRid: number | string | null): string | null {
  return nextRid === null ? null : String(Number(nextRid) - 1);
}
