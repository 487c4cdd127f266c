/**
 * @module compile
 * Compiles a `ListQuery` into SQL over `records r`, so filtering, counting and paging run
 * in the database: the one compiler of both adapters, with the few differences of SQLite
 * and PostgreSQL taken from a `SqlDialect` (dialects.ts). Every data filter is a predicate
 * on `r.rid` answered by an index of `record_values` (`fid, text` / `fid, folded` /
 * `fid, num`); meta filters compare the record's own columns. `folded` is stored only
 * where it differs from `text` (index-rows.ts), so a case-insensitive filter reads two
 * ranges. The meaning is core's reference evaluator (`matchesFilter`): positive modifiers
 * ask "some entry matches", `ne` / `none` ask "no entry equals".
 */
import type { SQL } from "drizzle-orm";
import { sql } from "./sql-tag.js";
import type { Filter, FilterValue, ListQuery, RecordState } from "@records-service/core";
import type { SqlDialect, ValueColumn } from "./dialects.js";
import { KIND_CODES, stampNeedle } from "./index-rows.js";
import { orderSafeHead, prefixUpperBound } from "./text-order.js";

/**
 * A data field the value index does not keep (issue 24: index what is queried): its entries
 * are read from each record's data (`SqlDialect.fieldEntries`), exactly as the index would
 * hold them, so every filter still means what the reference evaluator says.
 */
export interface ScannedField {
  scan: string;
}

/** Where a data field's entries are read: its `record_values` rows (the field id) or each record's data. */
export type FieldSource = number | ScannedField;

/**
 * Where each data field of one collection is read (`FieldSource`); undefined for an indexed
 * field no record of the collection has had.
 */
export type FieldIdLookup = (name: string) => FieldSource | undefined;

/** The field id of an indexed field's source, else undefined (scanned, or no record has it). */
export function indexedFid(source: FieldSource | undefined): number | undefined {
  return typeof source === "number" ? source : undefined;
}

/** Every record state; a query showing all of them needs no state predicate. */
const ALL_STATES: readonly RecordState[] = ["updated", "deleted"];

/**
 * How a data filter asks `record_values`:
 * - `set` (lists, counts): `r.rid IN (SELECT rid ... )`, the matching set built once per
 *   statement from the value index; best when the whole result is wanted;
 * - `probe` (scans): `EXISTS (... WHERE rid = r.rid ...)`, one primary-key probe per record
 *   walked; best for a short step of a walk in `rid` order, whose cost is then the records
 *   walked rather than every match of the filter.
 */
export type FilterForm = "set" | "probe";

/** Where a page starts: `offset` rows from the first match, or from the last with `fromEnd`. */
export interface PageSpec {
  limit: number;
  offset: number;
  fromEnd: boolean;
}

/** The statements of one dialect. */
export interface QueryCompiler {
  readonly dialect: SqlDialect;
  /**
   * The WHERE clause (over `records r`) of a list query in collection `cid`.
   *
   * @example
   * compiler.where(1, { filters: [lastNameEqLovelace], mode: "AND", states: ["updated"], page: 1, pageSize: 25 }, fid)
   * // r.cid = ? AND r.state = 'updated' AND (r.rid IN (SELECT rid FROM record_values WHERE fid = ? AND text IN (?)))
   */
  where(cid: number, query: ListQuery, fieldId: FieldIdLookup, form?: FilterForm): SQL;
  /** The state predicate, or undefined when every state is shown. */
  states(states: readonly RecordState[]): SQL | undefined;
  /** The filters combined by `mode`, parenthesised; undefined when there are none. */
  filters(query: Pick<ListQuery, "filters" | "mode">, fieldId: FieldIdLookup, form?: FilterForm): SQL | undefined;
  /** One filter as a predicate over `records r`. */
  filter(filter: Filter, fieldId: FieldIdLookup, form?: FilterForm): SQL;
  /**
   * One page of matches in insertion order, or in `order` (ORDER BY terms from `orderTerms`,
   * already read backwards when `fromEnd`). With `fromEnd`, the rows are read backwards
   * (`offset` then counts from the last match), for pages past the middle of a long list;
   * the caller reverses them.
   */
  page(where: SQL, page: PageSpec, order?: SQL): SQL;
  /**
   * One page of a query whose only filter is equality with one value (the commonest list
   * question), or undefined for any other query. The page walks that value's index
   * entries, already in `rid` order, and reads each record by its key, so it stops after
   * the page instead of first collecting every match. An entry is skipped when the same
   * record has the same text under a smaller kind code (e.g. `"1"` and `1` in one list), so
   * each record comes once; a text only a string can have (`Lovelace`, not `1` or `true`)
   * needs no such test.
   */
  equalityPage(cid: number, query: ListQuery, fieldId: FieldIdLookup, page: PageSpec): SQL | undefined;
  /** The number of matches of `where`. */
  count(where: SQL): SQL;
  /**
   * The number of records (of every state) matching the filters, counted from
   * `record_values` alone: no probe of `records` per match. Undefined when some filter
   * needs the records themselves (meta fields, `ne`/`none`, unknown fields, empty value
   * lists). Fields belong to one collection, so the field ids already confine it to `cid`.
   *
   * @example
   * compiler.matchCount({ filters: [lastNameEqLovelace], mode: "AND" }, fid)
   * // SELECT count(DISTINCT rid) AS n FROM record_values WHERE fid = ? AND text IN (?)
   */
  matchCount(query: Pick<ListQuery, "filters" | "mode">, fieldId: FieldIdLookup): SQL | undefined;
}

/** The columns a page returns, as `RecordRow` names (quoted: PostgreSQL folds unquoted names). */
const ROW_COLUMNS = sql.raw(
  `r.id, r.state, r.data, r.display_value AS "displayValue", r.created, r.last_updated AS "lastUpdated", r.version`,
);

/**
 * The query compiler of one dialect.
 *
 * @example
 * const compiler = createQueryCompiler(sqliteDialect);
 * const where = compiler.where(cid, query, (name) => catalog.fieldId(cid, name));
 */
export function createQueryCompiler(dialect: SqlDialect): QueryCompiler {
  const c = new _Compiler(dialect);
  return {
    dialect,
    where: (cid, query, fieldId, form = "set") => c.where(cid, query, fieldId, form),
    states: (states) => c.states(states),
    filters: (query, fieldId, form = "set") => c.filters(query, fieldId, form),
    filter: (filter, fieldId, form = "set") => c.filter(filter, fieldId, form),
    page: (where, page, order) => c.page(where, page, order),
    equalityPage: (cid, query, fieldId, page) => c.equalityPage(cid, query, fieldId, page),
    count: (where) => sql`SELECT count(*) AS n FROM records r WHERE ${where}`,
    matchCount: (query, fieldId) => c.matchCount(query, fieldId),
  };
}

// --- internal ---

type RangeOp = "gt" | "gte" | "lt" | "lte";
type CmpOp = RangeOp | "eq";

const _SQL_OP: Record<CmpOp, SQL> = { gt: sql`>`, gte: sql`>=`, lt: sql`<`, lte: sql`<=`, eq: sql`=` };
/** The non-strict form of an operator, for a key that holds only the head of a value. */
const _WIDE_OP: Record<CmpOp, CmpOp> = { gt: "gte", gte: "gte", lt: "lte", lte: "lte", eq: "eq" };

/** A column the compiler compares with texts: a value column or a record's meta column. */
interface _Col extends ValueColumn {
  param(text: string | Uint8Array): unknown;
}

/**
 * A condition on one entry: one index range (undefined: any entry), or `either` of two or
 * three ranges, read as index ranges whose rids are united.
 */
type _Cond = SQL | undefined | { either: SQL[] };

/**
 * One condition on an entry of a positive data filter, with `texts` when an entry meeting it
 * holds one of them as written (its text equals, contains or starts with it): what a scan's
 * cheap first test of the data's JSON text looks for (`scanPrefilter`).
 */
interface _EntryTest {
  cond: _Cond;
  texts?: string[];
}

/** A set of rids: one `record_values` range, or a compound of sets. */
type _RidSet = { fid: number; cond: SQL | undefined } | { op: "UNION" | "INTERSECT"; parts: _RidSet[] };

const _META_COLUMNS: Record<string, string> = {
  id: "r.id",
  created: "r.created",
  last_updated: "r.last_updated",
};

const _utf8 = new TextEncoder();

/** Texts `JSON.stringify` writes unescaped: no `"`, `\\`, control character or lone surrogate. */
const _SAFE_IN_JSON = /^(?:[^"\\\u0000-\u001f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;

class _Compiler {
  private readonly text: _Col;
  private readonly folded: _Col;

  constructor(private readonly d: SqlDialect) {
    this.text = { ...d.valueColumn("text"), param: d.valueParam };
    this.folded = { ...d.valueColumn("folded"), param: d.valueParam };
  }

  where(cid: number, query: ListQuery, fieldId: FieldIdLookup, form: FilterForm): SQL {
    const parts: SQL[] = [sql`r.cid = ${cid}`];
    const states = this.states(query.states);
    if (states) parts.push(states);
    const filters = this.filters(query, fieldId, form);
    if (filters) parts.push(filters);
    return sql.join(parts, sql` AND `);
  }

  states(states: readonly RecordState[]): SQL | undefined {
    if (ALL_STATES.every((s) => states.includes(s))) return undefined;
    if (states.length === 0) return this.d.false;
    // An equality written out, not bound: SQLite uses a partial index on the state
    // (`records_cid_deleted_idx`) only when it sees `state = 'deleted'` itself (not through
    // `IN`, nor a parameter). The states are core's, never the request's text.
    const shown = ALL_STATES.filter((s) => states.includes(s));
    return shown.length === 1 ? sql`r.state = ${sql.raw(`'${shown[0]}'`)}` : sql`r.state IN (${sql.raw(shown.map((s) => `'${s}'`).join(", "))})`;
  }

  filters(query: Pick<ListQuery, "filters" | "mode">, fieldId: FieldIdLookup, form: FilterForm): SQL | undefined {
    if (query.filters.length === 0) return undefined;
    if (query.mode === "OR" && form === "set" && query.filters.length > 1) {
      const union = this.ridUnion(query.filters, fieldId);
      if (union) return union;
    }
    const each = query.filters.map((f) => this.filter(f, fieldId, form));
    return sql`(${sql.join(each, query.mode === "OR" ? sql` OR ` : sql` AND `)})`;
  }

  /**
   * `r.rid IN` the union of the filters' matches when `record_values` alone can say each
   * (else undefined). SQLite plans an OR of `rid IN` subqueries as a walk of the whole
   * collection testing each record against every subquery; one `rid IN` of the union
   * looks each match up by rid.
   */
  private ridUnion(filters: readonly Filter[], fieldId: FieldIdLookup): SQL | undefined {
    const sets: _RidSet[] = [];
    for (const f of filters) {
      const set = this.ridSet(f, fieldId);
      if (!set) return undefined;
      sets.push(set);
    }
    return this.d.ridInSet(_setSql(_combine("UNION", sets), true));
  }

  filter(filter: Filter, fieldId: FieldIdLookup, form: FilterForm): SQL {
    if (filter.meta) return this.metaFilter(filter);
    const source = fieldId(filter.field);
    // A field no record of the collection has: no entries, so only the negative modifiers match.
    if (source === undefined) return _isNegative(filter) || _isVacuous(filter) ? this.d.true : this.d.false;
    return this.dataFilter(filter, source, form, fieldId);
  }

  page(where: SQL, page: PageSpec, order?: SQL): SQL {
    if (order) {
      // The matches are sorted as bare rids and only the page's records are read: sorting
      // whole rows (their data) past an offset costs several times more.
      const rids = sql`SELECT r.rid FROM records r WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`;
      return sql`SELECT ${ROW_COLUMNS} FROM records r WHERE r.rid IN (${rids}) ORDER BY ${order}`;
    }
    const terms = page.fromEnd ? sql`r.rid DESC` : sql`r.rid ASC`;
    return sql`SELECT ${ROW_COLUMNS} FROM records r WHERE ${where} ORDER BY ${terms} LIMIT ${page.limit} OFFSET ${page.offset}`;
  }

  equalityPage(cid: number, query: ListQuery, fieldId: FieldIdLookup, page: PageSpec): SQL | undefined {
    const f = query.filters.length === 1 ? query.filters[0]! : undefined;
    if (!f || f.meta || !["eq", "raw", "or", "orlist"].includes(f.op)) return undefined;
    const fid = indexedFid(fieldId(f.field));
    const texts = _texts(f.values);
    if (fid === undefined || texts.length !== 1) return undefined;
    const value = texts[0]!;
    const states = this.states(query.states);
    const order = page.fromEnd ? sql`DESC` : sql`ASC`;
    const v = { ...this.d.valueColumn("text", "v"), param: this.d.valueParam };
    const w = { ...this.d.valueColumn("text", "w"), param: this.d.valueParam };
    // A text only a string entry can have is held at most once per record and field.
    const once = _stringOnly(value) ? sql`` : sql`
    AND NOT EXISTS (SELECT 1 FROM record_values w WHERE w.rid = v.rid AND w.fid = v.fid AND w.kind < v.kind AND ${this.cmp(w, "eq", value)})`;
    return sql`SELECT ${ROW_COLUMNS} FROM record_values v ${this.d.orderedJoin} records r ON r.rid = v.rid
    WHERE v.fid = ${fid} AND ${this.cmp(v, "eq", value)} AND r.cid = ${cid}${states ? sql` AND ${states}` : sql``}${once}
    ORDER BY v.rid ${order} LIMIT ${page.limit} OFFSET ${page.offset}`;
  }

  matchCount(query: Pick<ListQuery, "filters" | "mode">, fieldId: FieldIdLookup): SQL | undefined {
    if (query.filters.length === 0) return undefined;
    const sets: _RidSet[] = [];
    for (const f of query.filters) {
      const set = this.ridSet(f, fieldId);
      if (!set) return undefined;
      sets.push(set);
    }
    const set = _combine(query.mode === "OR" ? "UNION" : "INTERSECT", sets);
    if ("fid" in set) {
      const where = set.cond ? sql`fid = ${set.fid} AND ${set.cond}` : sql`fid = ${set.fid}`;
      return sql`SELECT count(DISTINCT rid) AS n FROM record_values WHERE ${where}`;
    }
    return sql`SELECT count(*) AS n FROM (${_setSql(set)}) AS s`;
  }

  // --- filters ---

  /** The rids of a data filter's matches, or undefined when `record_values` alone cannot say. */
  private ridSet(f: Filter, fieldId: FieldIdLookup): _RidSet | undefined {
    if (f.meta || _isNegative(f) || f.values.length === 0) return undefined;
    const fid = indexedFid(fieldId(f.field));
    if (fid === undefined) return undefined;
    const at = (cond: _Cond): _RidSet =>
      cond && "either" in cond ? _combine("UNION", cond.either.map((c) => ({ fid, cond: c }))) : { fid, cond };
    const conds = this.entryConditions(f)?.map((t) => t.cond);
    if (conds === undefined) return undefined;
    if (conds.length === 1) return at(conds[0]);
    return _combine(f.op === "and" || f.op === "andlist" ? "INTERSECT" : "UNION", conds.map(at));
  }

  private dataFilter(f: Filter, source: FieldSource, form: FilterForm, fieldId: FieldIdLookup): SQL {
    const has = (cond: _Cond) => this.hasEntry(source, cond, form);
    if (f.op === "ne" || f.op === "none") {
      const texts = _texts(f.values);
      return texts.length === 0 ? this.d.true : sql`NOT ${has(this.inList(this.text, texts))}`;
    }
    const tests = this.entryConditions(f) ?? [];
    const conds = tests.map((t) => t.cond);
    if (typeof source !== "number") {
      // A scanned field: a cheap test of the data's JSON text first, where one is exact enough.
      const every = f.op === "and" || f.op === "andlist";
      const found = this.scanPrefilter(tests, every);
      const each = every ? this.all(conds.map(has)) : this.any(conds.map(has));
      return found ? sql`(${found} AND ${each})` : each;
    }
    if (f.op === "and" || f.op === "andlist") return this.all(conds.map(has));
    if (form === "set" && conds.length > 1) {
      const set = this.ridSet(f, fieldId);
      if (set) return this.d.ridInSet(_setSql(set, true));
    }
    return this.any(conds.map(has));
  }

  /**
   * A necessary condition on a record's data JSON text for a positive filter on a scanned
   * field (`SqlDialect.dataHolds`), or undefined: from the `texts` of its entry `tests`
   * (some test must hold, or, with `every`, each one). An entry's text appears in the data's
   * JSON text as it is (`JSON.stringify` writes a string's characters unescaped unless they
   * are `"`, `\`, a control character or a lone surrogate; a number as `String` does; a
   * nested object as its own JSON text), so a record can match only where the data holds
   * one of the texts a test compares. The exact test (the record's entries) then runs on
   * far fewer records. Tests without such texts (case-insensitive, ranges) give none.
   */
  private scanPrefilter(tests: readonly _EntryTest[], every: boolean): SQL | undefined {
    const holds = (t: string) => this.d.dataHolds(t);
    const parts = tests.map(({ texts }) =>
      texts && texts.length > 0 && texts.every((t) => t !== "" && _SAFE_IN_JSON.test(t)) ? this.any(texts.map((t) => holds(t))) : undefined,
    );
    // Some test must hold: each needs a text test. Every test must hold: any of theirs will do.
    const known = parts.filter((p): p is SQL => p !== undefined);
    if (known.length === 0 || (!every && known.length < parts.length)) return undefined;
    return every ? this.all(known) : this.any(known);
  }

  /**
   * The conditions on one entry of a positive data filter: one for the equality
   * modifiers, else one per value (some value for most modifiers, every value for
   * `and`); undefined for the negative ones. A condition of `undefined` matches any entry.
   * Each says which texts an entry meeting it holds as written, where it can (`_EntryTest`):
   * the index ranges and a scan's first test read this one split.
   */
  private entryConditions(f: Filter): _EntryTest[] | undefined {
    const texts = _texts(f.values);
    // Substring and prefix modifiers compare the value as written, never its date part.
    const plain = [...new Set(f.values.map((v) => v.text))];
    switch (f.op) {
      case "eq":
      case "raw":
      case "or":
      case "orlist":
        return texts.length === 0 ? [] : [{ cond: this.inList(this.text, texts), texts }];
      case "and":
      case "andlist":
        return f.values.map((v) => ({ cond: this.inList(this.text, _texts([v])), texts: _texts([v]) }));
      case "contains":
        return plain.map((t) => ({ cond: this.d.contains(this.text.full, sql`${this.text.param(t)}`), texts: [t] }));
      case "near":
        return _lowered(plain).map((t) => ({ cond: this.foldedRanges(t, false, (col, n) => this.d.contains(col.full, sql`${col.param(n)}`)) }));
      case "startswith":
        return plain.map((t) => ({ cond: this.prefixRange(this.text, t), texts: [t] }));
      case "startswithi":
        return _lowered(plain).map((t) => ({ cond: t === "" ? undefined : this.foldedRanges(t, true, (col, n) => this.prefixRange(col, n) ?? this.d.true) }));
      case "gt":
      case "gte":
      case "lt":
      case "lte": {
        const op = f.op;
        return f.values.map((v) => ({ cond: this.entryRange(op, v) }));
      }
      default:
        return undefined;
    }
  }

  /**
   * `match` (a condition on the lower-cased `needle`, as a `prefix` or a part) on an entry's
   * folded form: `folded` where it is stored, else `text`, and for a timestamp (stored
   * without its folded form, `isStampText`) `text` holding the needle with its `t` as `T`
   * (`stampNeedle`). The `text` ranges need no `folded IS NULL` (which their index does not
   * hold): a text holding a needle that is lower-case but for a `T` (as prefix or part)
   * folds to a text holding the lower-cased needle, since `toLowerCase` maps each character
   * alone and is idempotent (checked over every code point), so the ranges add no record
   * the folded form would not match.
   */
  private foldedRanges(needle: string, prefix: boolean, match: (col: _Col, needle: string) => SQL): _Cond {
    const either = [sql`folded IS NOT NULL AND ${match(this.folded, needle)}`, match(this.text, needle)];
    const stamp = stampNeedle(needle, prefix);
    if (stamp !== undefined) either.push(match(this.text, stamp));
    return { either };
  }

  /** `r.rid IN` the records with an entry of the field meeting `cond` (or its probe form). */
  private hasEntry(source: FieldSource, cond: _Cond, form: FilterForm): SQL {
    if (typeof source !== "number") {
      // A scanned field: the record's own entries, one probe of its data per record walked.
      const c = cond && "either" in cond ? _or(cond.either) : cond;
      const entries = this.d.fieldEntries(source.scan);
      return c ? sql`EXISTS (SELECT 1 FROM ${entries} WHERE ${c})` : sql`EXISTS (SELECT 1 FROM ${entries})`;
    }
    const fid = source;
    if (form === "probe") {
      const c = cond && "either" in cond ? _or(cond.either) : cond;
      return c
        ? sql`EXISTS (SELECT 1 FROM record_values WHERE rid = r.rid AND fid = ${fid} AND ${c})`
        : sql`EXISTS (SELECT 1 FROM record_values WHERE rid = r.rid AND fid = ${fid})`;
    }
    const select = (c: SQL | undefined) =>
      c ? sql`SELECT rid FROM record_values WHERE fid = ${fid} AND ${c}` : sql`SELECT rid FROM record_values WHERE fid = ${fid}`;
    // Two index ranges as one compound set: SQLite plans an OR of two IN-sets as a scan of the collection.
    if (cond && "either" in cond) return this.d.ridInSet(sql.join(cond.either.map(select), sql` UNION ALL `));
    return this.d.ridInSet(select(cond));
  }

  /** A range on an entry: numbers against number entries, text against string entries. */
  private entryRange(op: RangeOp, v: FilterValue): SQL {
    if (v.number !== undefined) return sql`num ${_SQL_OP[op]} ${v.number}`;
    const range = this.textRange(this.text, op, v.text);
    // A date-only value on the timestamp's day: gte includes it, lt excludes it (FilterValue.date).
    const kind = sql`kind = ${KIND_CODES.string}`;
    if (v.date !== undefined && op === "gte") return sql`${kind} AND (${range} OR ${this.cmp(this.text, "eq", v.date)})`;
    if (v.date !== undefined && op === "lt") return sql`${kind} AND ${range} AND NOT ${this.cmp(this.text, "eq", v.date)}`;
    return sql`${kind} AND ${range}`;
  }

  private metaFilter(f: Filter): SQL {
    const column = Object.hasOwn(_META_COLUMNS, f.field) ? _META_COLUMNS[f.field] : undefined;
    if (column === undefined) return _isNegative(f) || _isVacuous(f) ? this.d.true : this.d.false;
    const raw = sql.raw(column);
    const col: _Col = { key: raw, full: raw, keyBytes: Number.POSITIVE_INFINITY, param: (t) => t };
    const lower: _Col = { ...col, key: this.d.lowerMeta(raw), full: this.d.lowerMeta(raw) };
    // Meta columns always hold full timestamps: a value's date part plays no role here.
    const texts = [...new Set(f.values.map((v) => v.text))];
    // Meta columns (hex ids, timestamps) never hold U+0000, which PostgreSQL text cannot
    // carry: a value holding it equals, contains and starts no column value.
    const clean = texts.filter((t) => !t.includes("\u0000"));
    switch (f.op) {
      case "eq":
      case "raw":
      case "or":
      case "orlist":
        return clean.length === 0 ? this.d.false : sql`${raw} IN (${_list(clean)})`;
      case "and":
      case "andlist":
        // One column value equals every value only when there is a single distinct value.
        if (clean.length < texts.length) return this.d.false;
        return this.all(texts.map((t) => sql`${raw} = ${t}`));
      case "ne":
      case "none":
        return clean.length === 0 ? this.d.true : sql`${raw} NOT IN (${_list(clean)})`;
      case "contains":
        return this.any(clean.map((t) => this.d.contains(raw, sql`${t}`)));
      case "near":
        return this.any(_lowered(clean).map((t) => this.d.contains(lower.full, sql`${t}`)));
      case "startswith":
        return this.any(clean.map((t) => this.prefixRange(col, t) ?? this.d.true));
      case "startswithi":
        return this.any(_lowered(clean).map((t) => this.prefixRange(lower, t) ?? this.d.true));
      case "gt":
      case "gte":
      case "lt":
      case "lte": {
        const op = f.op;
        // The columns hold strings: a numeric bound matches none of them (as in the evaluator).
        return this.any(
          f.values.filter((v) => v.number === undefined).map((v) => {
            const [o, t] = _withoutNul(op, v.text);
            return this.textRange(col, o, t);
          }),
        );
      }
    }
  }

  // --- comparisons ---

  /**
   * `col op text`, by the index key when the key holds the text whole: a key holding only
   * a value's head compares with that head exactly as the value does for any text shorter
   * than the head. Longer texts compare the head (non-strictly, for the index) and then
   * the whole value.
   */
  private cmp(col: _Col, op: CmpOp, text: string): SQL {
    if (!Number.isFinite(col.keyBytes)) return sql`${col.key} ${_SQL_OP[op]} ${col.param(text)}`;
    const bytes = _utf8.encode(text);
    if (bytes.length < col.keyBytes) return sql`${col.key} ${_SQL_OP[op]} ${col.param(text)}`;
    const head = col.param(bytes.subarray(0, col.keyBytes));
    return sql`${col.key} ${_SQL_OP[_WIDE_OP[op]]} ${head} AND ${col.full} ${_SQL_OP[op]} ${col.param(text)}`;
  }

  /** `col IN (texts)`: one index lookup per text. */
  private inList(col: _Col, texts: string[]): SQL {
    const whole = texts.filter((t) => !Number.isFinite(col.keyBytes) || _utf8.encode(t).length < col.keyBytes);
    const parts: SQL[] = [];
    if (whole.length > 0) parts.push(sql`${col.key} IN (${_list(whole.map((t) => col.param(t)))})`);
    for (const t of texts) if (!whole.includes(t)) parts.push(sql`(${this.cmp(col, "eq", t)})`);
    return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` OR `)})`;
  }

  /**
   * `col op v` in JS (UTF-16) order. When `v` holds a code unit at or above U+D800 the byte
   * order may disagree, so the index range is widened to an exact superset (bounded by the
   * order-safe head of `v`) and each candidate is checked with the JS comparison.
   */
  private textRange(col: _Col, op: RangeOp, v: string): SQL {
    const head = orderSafeHead(v);
    if (head === v) return this.cmp(col, op, v);
    const exact = sql`${this.d.cmp16(col.full, sql`${col.param(v)}`)} ${_SQL_OP[op]} 0`;
    if (op === "gt" || op === "gte") return sql`${this.cmp(col, "gte", head)} AND ${exact}`;
    const upper = prefixUpperBound(head);
    return upper === undefined ? exact : sql`${this.cmp(col, "lt", upper)} AND ${exact}`;
  }

  /** `col` starts with `p`, as an index range (exact for any prefix, see text-order). */
  private prefixRange(col: _Col, p: string): SQL | undefined {
    if (p === "") return undefined;
    const upper = prefixUpperBound(p);
    return upper === undefined ? this.cmp(col, "gte", p) : sql`${this.cmp(col, "gte", p)} AND ${this.cmp(col, "lt", upper)}`;
  }

  private any(parts: (SQL | undefined)[]): SQL {
    const defined = parts.map((p) => p ?? this.d.true);
    if (defined.length === 0) return this.d.false;
    return defined.length === 1 ? defined[0]! : sql`(${sql.join(defined, sql` OR `)})`;
  }

  private all(parts: SQL[]): SQL {
    if (parts.length === 0) return this.d.true;
    return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` AND `)})`;
  }
}

/** The sets under `op`; a part that is itself an `op` compound is spread (both operators are associative). */
function _combine(op: "UNION" | "INTERSECT", parts: _RidSet[]): _RidSet {
  const flat = parts.flatMap((p) => ("op" in p && p.op === op ? p.parts : [p]));
  return flat.length === 1 ? flat[0]! : { op, parts: flat };
}

/**
 * A compound SELECT of rids; a nested compound is wrapped so each operator applies to its
 * own parts. `forIn`: the rids are only tested for membership (`rid IN`), so the outer
 * union may keep duplicates (`UNION ALL`, no sort to remove them).
 */
function _setSql(set: _RidSet, forIn = false): SQL {
  if ("fid" in set) {
    return set.cond
      ? sql`SELECT rid FROM record_values WHERE fid = ${set.fid} AND ${set.cond}`
      : sql`SELECT rid FROM record_values WHERE fid = ${set.fid}`;
  }
  const members = set.parts.map((p) => ("fid" in p ? _setSql(p) : sql`SELECT rid FROM (${_setSql(p)}) AS s`));
  return sql.join(members, sql.raw(forIn && set.op === "UNION" ? " UNION ALL " : ` ${set.op} `));
}

function _isNegative(f: Filter): boolean {
  return f.op === "ne" || f.op === "none";
}

/** `and` / `andlist` with no values: "every value equals some entry" holds for none. */
function _isVacuous(f: Filter): boolean {
  return (f.op === "and" || f.op === "andlist") && f.values.length === 0;
}

function _list(items: readonly unknown[]): SQL {
  return sql.join(
    items.map((v) => sql`${v}`),
    sql`, `,
  );
}

/**
 * True when only a string entry can have the text `t` (core's `toEntries`): a number's entry
 * has the text `String` gives a finite number, a boolean's `true` or `false`, a JSON entry's
 * (an object or a nested list) starts with `{` or `[` (`"` too, for any other JSON text).
 * The index rows hold each kind and text of a field once per record (`valueRows`), so such
 * a text then matches at most one entry per record and field.
 *
 * @example
 * _stringOnly("Lovelace") // true
 * _stringOnly("12") // false: the number 12 has it too
 */
function _stringOnly(t: string): boolean {
  if (t === "true" || t === "false") return false;
  const c = t.charCodeAt(0);
  if (c === 0x7b || c === 0x5b || c === 0x22) return false;
  const n = Number(t);
  return !(Number.isFinite(n) && String(n) === t);
}

/** The texts an equality compares with: a timestamp value also equals its date (FilterValue.date). */
function _texts(values: readonly FilterValue[]): string[] {
  return [...new Set(values.flatMap((v) => (v.date === undefined ? [v.text] : [v.text, v.date])))];
}

/** Conditions joined by OR, in parentheses. */
function _or(conds: readonly SQL[]): SQL {
  return sql`(${sql.join([...conds], sql` OR `)})`;
}

function _lowered(texts: string[]): string[] {
  return [...new Set(texts.map((t) => t.toLowerCase()))];
}

/**
 * A range bound against a column that holds no U+0000, as an equivalent bound without it:
 * with `v = h + "\0" + rest`, a value without U+0000 is above `v` exactly when it is above
 * `h`, and below `v` exactly when it is at most `h`.
 */
function _withoutNul(op: RangeOp, v: string): [RangeOp, string] {
  const at = v.indexOf("\u0000");
  if (at < 0) return [op, v];
  return [op === "gt" || op === "gte" ? "gt" : "lte", v.slice(0, at)];
}
