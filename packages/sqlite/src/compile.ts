/**
 * @module compile
 * Compiles a `ListQuery` into SQL over `records r`, so filtering, counting and paging run
 * in SQLite. Every data filter is a predicate on `r.rid` answered by an index of
 * `record_values` (`fid, text` / `fid, folded` / `fid, num`); meta filters compare the
 * record's own columns. The meaning is core's reference evaluator (`matchesFilter`):
 * positive modifiers ask "some entry matches", `ne` / `none` ask "no entry equals".
 */
import { sql, type SQL } from "drizzle-orm";
import type { Filter, FilterValue, ListQuery, RecordState } from "@records-service/core";
import { KIND_CODES } from "./schema.js";
import { CMP16, LOWER, orderSafeHead, prefixUpperBound } from "./text-order.js";

/** The field ids of one collection: undefined for a field no record of it has had. */
export type FieldIdLookup = (name: string) => number | undefined;

/** Every record state; a query showing all of them needs no state predicate. */
export const ALL_STATES: readonly RecordState[] = ["updated", "deleted"];

/**
 * The WHERE clause (over `records r`) of a list query in collection `cid`.
 *
 * @example
 * compileWhere(1, { filters: [lastNameEqLovelace], mode: "AND", states: ["updated"], page: 1, pageSize: 25 }, fid)
 * // r.cid = ? AND r.state IN (?) AND (r.rid IN (SELECT rid FROM record_values WHERE fid = ? AND text IN (?)))
 */
export function compileWhere(cid: number, query: ListQuery, fieldId: FieldIdLookup, form: FilterForm = "set"): SQL {
  const parts: SQL[] = [sql`r.cid = ${cid}`];
  const states = compileStates(query.states);
  if (states) parts.push(states);
  const filters = compileFilters(query, fieldId, form);
  if (filters) parts.push(filters);
  return sql.join(parts, sql` AND `);
}

/** The state predicate, or undefined when every state is shown. */
export function compileStates(states: readonly RecordState[]): SQL | undefined {
  if (ALL_STATES.every((s) => states.includes(s))) return undefined;
  if (states.length === 0) return sql`0`;
  return sql`r.state IN (${_list(states)})`;
}

/** The filters combined by `mode`, parenthesised; undefined when there are none. */
export function compileFilters(
  query: Pick<ListQuery, "filters" | "mode">,
  fieldId: FieldIdLookup,
  form: FilterForm = "set",
): SQL | undefined {
  if (query.filters.length === 0) return undefined;
  const each = query.filters.map((f) => compileFilter(f, fieldId, form));
  return sql`(${sql.join(each, query.mode === "OR" ? sql` OR ` : sql` AND `)})`;
}

/**
 * How a data filter asks `record_values`:
 * - `set` (lists, counts): `r.rid IN (SELECT rid ... )`, the matching set built once per
 *   statement from the value index; best when the whole result is wanted;
 * - `probe` (scans): `EXISTS (... WHERE rid = r.rid ...)`, one primary-key probe per record
 *   walked; best for a short step of a walk in `rid` order (scan.ts), whose cost is then
 *   the records walked rather than every match of the filter.
 */
export type FilterForm = "set" | "probe";

/** One filter as a predicate over `records r`. */
export function compileFilter(filter: Filter, fieldId: FieldIdLookup, form: FilterForm = "set"): SQL {
  if (filter.meta) return _metaFilter(filter);
  const fid = fieldId(filter.field);
  // A field no record of the collection has: no entries, so only the negative modifiers match.
  if (fid === undefined) return _isNegative(filter) || _isVacuous(filter) ? sql`1` : sql`0`;
  return _dataFilter(filter, fid, form);
}

/** The columns a page returns, as `RecordRow` names (see read.ts). */
const _ROW_COLUMNS = sql.raw(
  "r.id, r.state, r.data, r.display_value AS displayValue, r.created, r.last_updated AS lastUpdated, r.version",
);

/**
 * One page of matches in insertion order. With `fromEnd`, the rows are read backwards
 * (`offset` then counts from the last match), for pages past the middle of a long list;
 * the caller reverses them.
 */
export function compilePage(where: SQL, page: { limit: number; offset: number; fromEnd: boolean }): SQL {
  const order = page.fromEnd ? sql`DESC` : sql`ASC`;
  return sql`SELECT ${_ROW_COLUMNS} FROM records r WHERE ${where} ORDER BY r.rid ${order} LIMIT ${page.limit} OFFSET ${page.offset}`;
}

/**
 * One page of a query whose only filter is equality with one value (the commonest list
 * question), or undefined for any other query. The page walks that value's index entries,
 * already in `rid` order, and reads each record by its key, so it stops after the page
 * instead of first collecting every match. An entry is skipped when the same record has
 * the same text under a smaller kind code (e.g. `"1"` and `1` in one list), so each record
 * comes once.
 */
export function compileEqualityPage(
  cid: number,
  query: ListQuery,
  fieldId: FieldIdLookup,
  page: { limit: number; offset: number; fromEnd: boolean },
): SQL | undefined {
  const f = query.filters.length === 1 ? query.filters[0]! : undefined;
  if (!f || f.meta || !["eq", "raw", "or", "orlist"].includes(f.op)) return undefined;
  const fid = fieldId(f.field);
  const texts = _texts(f.values);
  if (fid === undefined || texts.length !== 1) return undefined;
  const states = compileStates(query.states);
  const order = page.fromEnd ? sql`DESC` : sql`ASC`;
  // CROSS JOIN keeps record_values the outer loop (SQLite does not reorder it).
  return sql`SELECT ${_ROW_COLUMNS} FROM record_values v CROSS JOIN records r ON r.rid = v.rid
    WHERE v.fid = ${fid} AND v.text = ${texts[0]!} AND r.cid = ${cid}${states ? sql` AND ${states}` : sql``}
    AND NOT EXISTS (SELECT 1 FROM record_values w WHERE w.rid = v.rid AND w.fid = v.fid AND w.kind < v.kind AND w.text = v.text)
    ORDER BY v.rid ${order} LIMIT ${page.limit} OFFSET ${page.offset}`;
}

/** The number of matches of `where`. */
export function compileCount(where: SQL): SQL {
  return sql`SELECT count(*) AS n FROM records r WHERE ${where}`;
}

/**
 * The number of records (of every state) matching the filters, counted from
 * `record_values` alone: no probe of `records` per match. Undefined when some filter needs
 * the records themselves (meta fields, `ne`/`none`, unknown fields, empty value lists).
 * Fields belong to one collection, so the field ids already confine it to `cid`.
 *
 * @example
 * compileMatchCount({ filters: [lastNameEqLovelace], mode: "AND" }, fid)
 * // SELECT count(DISTINCT rid) AS n FROM record_values WHERE fid = ? AND text IN (?)
 */
export function compileMatchCount(query: Pick<ListQuery, "filters" | "mode">, fieldId: FieldIdLookup): SQL | undefined {
  if (query.filters.length === 0) return undefined;
  const sets: _RidSet[] = [];
  for (const f of query.filters) {
    const set = _ridSet(f, fieldId);
    if (!set) return undefined;
    sets.push(set);
  }
  const set = _combine(query.mode === "OR" ? "UNION" : "INTERSECT", sets);
  if ("fid" in set) {
    const where = set.cond ? sql`fid = ${set.fid} AND ${set.cond}` : sql`fid = ${set.fid}`;
    return sql`SELECT count(DISTINCT rid) AS n FROM record_values WHERE ${where}`;
  }
  return sql`SELECT count(*) AS n FROM (${_setSql(set)})`;
}

// --- internal ---

/** A set of rids: one `record_values` range, or a compound of sets. */
type _RidSet = { fid: number; cond: SQL | undefined } | { op: "UNION" | "INTERSECT"; parts: _RidSet[] };

function _combine(op: "UNION" | "INTERSECT", parts: _RidSet[]): _RidSet {
  return parts.length === 1 ? parts[0]! : { op, parts };
}

/** The rids of a data filter's matches, or undefined when `record_values` alone cannot say. */
function _ridSet(f: Filter, fieldId: FieldIdLookup): _RidSet | undefined {
  if (f.meta || _isNegative(f) || f.values.length === 0) return undefined;
  const fid = fieldId(f.field);
  if (fid === undefined) return undefined;
  const texts = _texts(f.values);
  const plain = [...new Set(f.values.map((v) => v.text))];
  const at = (cond: SQL | undefined): _RidSet => ({ fid, cond });
  switch (f.op) {
    case "eq":
    case "raw":
    case "or":
    case "orlist":
      return at(sql`text IN (${_list(texts)})`);
    case "and":
    case "andlist":
      return _combine("INTERSECT", f.values.map((v) => at(sql`text IN (${_list(_texts([v]))})`)));
    case "contains":
      return _combine("UNION", plain.map((t) => at(sql`instr(text, ${t}) > 0`)));
    case "near":
      return _combine("UNION", _lowered(plain).map((t) => at(sql`instr(folded, ${t}) > 0`)));
    case "startswith":
      return _combine("UNION", plain.map((t) => at(_prefixRange(sql`text`, t))));
    case "startswithi":
      return _combine("UNION", _lowered(plain).map((t) => at(_prefixRange(sql`folded`, t))));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const op = f.op;
      return _combine("UNION", f.values.map((v) => at(_entryRange(op, v))));
    }
    default:
      return undefined;
  }
}

/** A compound SELECT of rids; a nested compound is wrapped so each operator applies to its own parts. */
function _setSql(set: _RidSet): SQL {
  if ("fid" in set) {
    return set.cond
      ? sql`SELECT rid FROM record_values WHERE fid = ${set.fid} AND ${set.cond}`
      : sql`SELECT rid FROM record_values WHERE fid = ${set.fid}`;
  }
  const members = set.parts.map((p) => ("fid" in p ? _setSql(p) : sql`SELECT rid FROM (${_setSql(p)})`));
  return sql.join(members, sql.raw(` ${set.op} `));
}

type RangeOp = "gt" | "gte" | "lt" | "lte";

const _SQL_OP: Record<RangeOp, SQL> = { gt: sql`>`, gte: sql`>=`, lt: sql`<`, lte: sql`<=` };

function _isNegative(f: Filter): boolean {
  return f.op === "ne" || f.op === "none";
}

/** `and` / `andlist` with no values: "every value equals some entry" holds for none. */
function _isVacuous(f: Filter): boolean {
  return (f.op === "and" || f.op === "andlist") && f.values.length === 0;
}

function _list(items: readonly (string | number)[]): SQL {
  return sql.join(
    items.map((v) => sql`${v}`),
    sql`, `,
  );
}

/** The texts an equality compares with: a timestamp value also equals its date (FilterValue.date). */
function _texts(values: readonly FilterValue[]): string[] {
  return [...new Set(values.flatMap((v) => (v.date === undefined ? [v.text] : [v.text, v.date])))];
}

function _any(parts: SQL[]): SQL {
  if (parts.length === 0) return sql`0`;
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` OR `)})`;
}

function _all(parts: SQL[]): SQL {
  if (parts.length === 0) return sql`1`;
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` AND `)})`;
}

/** `r.rid IN` the records with an entry of field `fid` meeting `cond` (or its probe form). */
function _hasEntry(fid: number, cond: SQL | undefined, form: FilterForm): SQL {
  if (form === "probe") {
    return cond
      ? sql`EXISTS (SELECT 1 FROM record_values WHERE rid = r.rid AND fid = ${fid} AND ${cond})`
      : sql`EXISTS (SELECT 1 FROM record_values WHERE rid = r.rid AND fid = ${fid})`;
  }
  return cond
    ? sql`r.rid IN (SELECT rid FROM record_values WHERE fid = ${fid} AND ${cond})`
    : sql`r.rid IN (SELECT rid FROM record_values WHERE fid = ${fid})`;
}

function _dataFilter(f: Filter, fid: number, form: FilterForm): SQL {
  const texts = _texts(f.values);
  // Substring and prefix modifiers compare the value as written, never its date part.
  const plain = [...new Set(f.values.map((v) => v.text))];
  const has = (cond: SQL | undefined) => _hasEntry(fid, cond, form);
  switch (f.op) {
    case "eq":
    case "raw":
    case "or":
    case "orlist":
      return texts.length === 0 ? sql`0` : has(sql`text IN (${_list(texts)})`);
    case "and":
    case "andlist":
      return _all(f.values.map((v) => has(sql`text IN (${_list(_texts([v]))})`)));
    case "ne":
    case "none":
      return texts.length === 0 ? sql`1` : sql`NOT ${has(sql`text IN (${_list(texts)})`)}`;
    case "contains":
      return _any(plain.map((t) => has(sql`instr(text, ${t}) > 0`)));
    case "near":
      return _any(_lowered(plain).map((t) => has(sql`instr(folded, ${t}) > 0`)));
    case "startswith":
      return _any(plain.map((t) => has(_prefixRange(sql`text`, t))));
    case "startswithi":
      return _any(_lowered(plain).map((t) => has(_prefixRange(sql`folded`, t))));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const op = f.op;
      return _any(f.values.map((v) => has(_entryRange(op, v))));
    }
  }
}

function _lowered(texts: string[]): string[] {
  return [...new Set(texts.map((t) => t.toLowerCase()))];
}

/** A range on an entry: numbers against number entries, text against string entries. */
function _entryRange(op: RangeOp, v: FilterValue): SQL {
  if (v.number !== undefined) return sql`num ${_SQL_OP[op]} ${v.number}`;
  const range = _textRange(sql`text`, op, v.text);
  // A date-only value on the timestamp's day: gte includes it, lt excludes it (FilterValue.date).
  if (v.date !== undefined && op === "gte") return sql`kind = ${KIND_CODES.string} AND (${range} OR text = ${v.date})`;
  if (v.date !== undefined && op === "lt") return sql`kind = ${KIND_CODES.string} AND ${range} AND text <> ${v.date}`;
  return sql`kind = ${KIND_CODES.string} AND ${range}`;
}

/**
 * `col op v` in JS (UTF-16) order. When `v` holds a code unit at or above U+D800 the byte
 * order may disagree, so the index range is widened to an exact superset (bounded by the
 * order-safe head of `v`) and each candidate is checked with the JS comparison.
 */
function _textRange(col: SQL, op: RangeOp, v: string): SQL {
  const head = orderSafeHead(v);
  if (head === v) return sql`${col} ${_SQL_OP[op]} ${v}`;
  const exact = sql`${sql.raw(CMP16)}(${col}, ${v}) ${_SQL_OP[op]} 0`;
  if (op === "gt" || op === "gte") return sql`${col} >= ${head} AND ${exact}`;
  const upper = prefixUpperBound(head);
  return upper === undefined ? exact : sql`${col} < ${upper} AND ${exact}`;
}

/** `col` starts with `p`, as an index range (exact for any prefix, see text-order). */
function _prefixRange(col: SQL, p: string): SQL | undefined {
  if (p === "") return undefined;
  const upper = prefixUpperBound(p);
  return upper === undefined ? sql`${col} >= ${p}` : sql`${col} >= ${p} AND ${col} < ${upper}`;
}

function _metaFilter(f: Filter): SQL {
  const column = Object.hasOwn(_META_COLUMNS, f.field) ? _META_COLUMNS[f.field] : undefined;
  if (column === undefined) return _isNegative(f) || _isVacuous(f) ? sql`1` : sql`0`;
  const col = sql.raw(column);
  // Meta columns always hold full timestamps: a value's date part plays no role here.
  const texts = [...new Set(f.values.map((v) => v.text))];
  switch (f.op) {
    case "eq":
    case "raw":
    case "or":
    case "orlist":
      return texts.length === 0 ? sql`0` : sql`${col} IN (${_list(texts)})`;
    case "and":
    case "andlist":
      // One column value equals every value only when there is a single distinct value.
      return _all(texts.map((t) => sql`${col} = ${t}`));
    case "ne":
    case "none":
      return texts.length === 0 ? sql`1` : sql`${col} NOT IN (${_list(texts)})`;
    case "contains":
      return _any(texts.map((t) => sql`instr(${col}, ${t}) > 0`));
    case "near":
      return _any(_lowered(texts).map((t) => sql`instr(${sql.raw(LOWER)}(${col}), ${t}) > 0`));
    case "startswith":
      return _any(texts.map((t) => _prefixRange(col, t) ?? sql`1`));
    case "startswithi":
      return _any(_lowered(texts).map((t) => _prefixRange(sql`${sql.raw(LOWER)}(${col})`, t) ?? sql`1`));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const op = f.op;
      // The columns hold strings: a numeric bound matches none of them (as in the evaluator).
      return _any(f.values.filter((v) => v.number === undefined).map((v) => _textRange(col, op, v.text)));
    }
  }
}

const _META_COLUMNS: Record<string, string> = {
  id: "r.id",
  created: "r.created",
  last_updated: "r.last_updated",
};
