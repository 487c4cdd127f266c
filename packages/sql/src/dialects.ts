/**
 * @module dialects
 * What differs between SQLite and PostgreSQL for the query compiler, as one small table of
 * expressions; everything else in compile.ts is written once for both.
 *
 * | concern | SQLite | PostgreSQL |
 * |---|---|---|
 * | truth values | `1` / `0` | `true` / `false` |
 * | `record_values.text` / `folded` (`folded` null where it equals `text`) | TEXT, BINARY collation (code point order) | BYTEA (byte order = code point order; holds U+0000) |
 * | long values | stored whole in the indexed column | the indexed column holds the first 1,024 bytes, `text_long` / `folded_long` the whole value when longer (b-tree entries are limited to ~2.7 kB) |
 * | substring test | `instr(col, ?) > 0` | `position(? in col) > 0` |
 * | meta column lower-case | `records_lower(col)` (JS `toLowerCase`) | `lower(col)` (`COLLATE "C"`: ASCII, what ids and timestamps hold) |
 * | UTF-16 order check | `records_cmp16(a, b)` (a JS function) | `records_cmp16(a, b)` (an SQL function from the migrations) |
 * | a join the planner must not reorder | `CROSS JOIN` | `JOIN` (PostgreSQL picks the order itself) |
 * | one data field of a record, as JSON text | `r.data -> '$."name"'` | `(r.data::json -> 'name')::text`, except for data holding a `\u0000` or lone-surrogate escape (PostgreSQL's JSON functions refuse both), which is read whole |
 * | a JSON text is a string starting with a date | `t GLOB '"[0-9][0-9][0-9][0-9]-…'` | `t ~ '^"[0-9]{4}-[0-9]{2}-[0-9]{2}'` |
 * | a JSON array's entries mapped, as JSON text | `group_concat` over `json_each` (`t -> key`: each entry's text as stored) | `string_agg` over `json_array_elements` (json: each entry's text as stored) |
 * | a record in a set of rids | `r.rid IN (subquery)` | `r.rid = ANY(ARRAY(subquery))`: the set is built once from the value index, as SQLite does; PostgreSQL would otherwise probe every record of a limited page for filters whose matches it overestimates (ranges, substrings) |
 */
import { Buffer } from "node:buffer";
import type { SQL } from "drizzle-orm";
import { sql } from "./sql-tag.js";
import { FIELD_NAME_RE } from "@records-service/core";
import { ENTRIES } from "./index-rows.js";
import { CMP16 } from "./text-order.js";

/** A `record_values` text column as the compiler sees it. */
export interface ValueColumn {
  /** The indexed expression: the whole value, or its first `keyBytes` bytes. */
  key: SQL;
  /** The whole value (for substring tests and exact checks of long bounds). */
  full: SQL;
  /** Values shorter than this many UTF-8 bytes are held whole by `key`. */
  keyBytes: number;
}

/** The per-dialect expressions of the query compiler. */
export interface SqlDialect {
  readonly name: "sqlite" | "postgres";
  readonly true: SQL;
  readonly false: SQL;
  /** The `text` or `folded` column of `record_values` (optionally of a table alias). */
  valueColumn(column: "text" | "folded", alias?: string): ValueColumn;
  /** A text (or, for a long value's head, its UTF-8 bytes) as a parameter compared with a value column. */
  valueParam(text: string | Uint8Array): unknown;
  /** `haystack` contains `needle` (both SQL expressions of the same type). */
  contains(haystack: SQL, needle: SQL): SQL;
  /** A meta column (id, timestamps: ASCII) lower-cased. */
  lowerMeta(column: SQL): SQL;
  /**
   * The folded form of a value `text` stored without one: the text itself, or a
   * timestamp's (`isStampText`) with its `T` as `t`. Such a text holds no other upper-case
   * letter, and a timestamp no other `T`.
   */
  foldOfText(text: SQL): SQL;
  /** `records_cmp16(a, b)`: -1, 0 or 1 by UTF-16 order. */
  cmp16(a: SQL, b: SQL): SQL;
  /** The join keyword that keeps the written join order (SQLite's planner reorders `JOIN`). */
  readonly orderedJoin: SQL;
  /** `r.rid` is one of the rids `subquery` selects, the set built once per statement. */
  ridInSet(subquery: SQL): SQL;
  /** The data field `name` (a `FIELD_NAME_RE` name) of `r.data` as JSON text; NULL when the record has no such field. */
  dataField(name: string): SQL;
  /**
   * A table expression (for `FROM`) of the entries of data field `name` of `r`, as columns
   * `kind`, `text`, `folded`, `num` as `record_values` would hold them (`valueRows`; on
   * PostgreSQL a timestamp keeps its folded form, which every condition reads first, as
   * rows stored before `isStampText` do): what a filter on a field the value index does
   * not keep reads.
   */
  fieldEntries(name: string): SQL;
  /**
   * `r.data`'s JSON text holds `text` as written (a text `JSON.stringify` does not escape),
   * as a cheap first test before `fieldEntries`. Sound only because both adapters store
   * `records.data` as the record's `JSON.stringify` text (a jsonb column would write numbers
   * and escapes its own way).
   */
  dataHolds(text: string): SQL;
  /** When set, rows meeting it have their data read whole instead (`dataField` cannot read them). */
  readonly dataFieldFallback: SQL | undefined;
  /** The JSON text `json` is a string whose text starts with a date `YYYY-MM-DD` (ASCII digits). */
  startsWithDate(json: SQL): SQL;
  /** The JSON array text `list` with each entry (its JSON text as stored) replaced by `map(entry)`, in order, as JSON text. */
  mapListEntries(list: SQL, map: (entry: SQL) => SQL): SQL;
}

/** SQLite (better-sqlite3): text columns hold whole values; `records_lower` is a registered JS function. */
export const sqliteDialect: SqlDialect = {
  name: "sqlite",
  true: sql`1`,
  false: sql`0`,
  valueColumn(column, alias) {
    const col = sql.raw(alias ? `${alias}.${column}` : column);
    return { key: col, full: col, keyBytes: Number.POSITIVE_INFINITY };
  },
  valueParam: (text) => text,
  contains: (haystack, needle) => sql`instr(${haystack}, ${needle}) > 0`,
  lowerMeta: (column) => sql`records_lower(${column})`,
  foldOfText: (text) => sql`replace(${text}, 'T', 't')`,
  cmp16: (a, b) => sql`${sql.raw(CMP16)}(${a}, ${b})`,
  orderedJoin: sql`CROSS JOIN`,
  ridInSet: (subquery) => sql`r.rid IN (${subquery})`,
  dataField: (name) => sql`r.data -> ${`$."${name}"`}`,
  // A FIELD_NAME_RE name is picked by SQLite (the JS function parses only the field's JSON);
  // any other is picked by the function from the whole data.
  fieldEntries: (name) =>
    FIELD_NAME_RE.test(name) ? sql`${sql.raw(ENTRIES)}(r.data -> ${`$."${name}"`})` : sql`${sql.raw(ENTRIES)}(r.data, ${name})`,
  dataHolds: (text) => sql`instr(r.data, ${text}) > 0`,
  dataFieldFallback: undefined,
  startsWithDate: (json) => sql`(${json}) GLOB '"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'`,
  mapListEntries: (list, map) =>
    sql`(SELECT '[' || coalesce(group_concat(${map(sql`((${list}) -> le.key)`)}, ',' ORDER BY le.id), '') || ']' FROM json_each(${list}) le)`,
};

/**
 * The bytes of a value the PostgreSQL `record_values.text` / `folded` columns hold (the
 * rest goes to `text_long` / `folded_long`): b-tree index entries must stay under ~2.7 kB.
 */
export const PG_VALUE_KEY_BYTES = 1024;

/** PostgreSQL: bytea value columns with a bounded key (see `PG_VALUE_KEY_BYTES`). */
export const postgresDialect: SqlDialect = {
  name: "postgres",
  true: sql`true`,
  false: sql`false`,
  valueColumn(column, alias) {
    const name = (c: string) => sql.raw(alias ? `${alias}.${c}` : c);
    return {
      key: name(column),
      full: sql`coalesce(${name(`${column}_long`)}, ${name(column)})`,
      keyBytes: PG_VALUE_KEY_BYTES,
    };
  },
  valueParam: (text) => (typeof text === "string" ? Buffer.from(text, "utf8") : Buffer.from(text)),
  contains: (haystack, needle) => sql`position(${needle} in ${haystack}) > 0`,
  lowerMeta: (column) => sql`lower(${column})`,
  // bytea has no replace(): the eleventh byte, where a timestamp holds its one `T` (0x54).
  foldOfText: (text) => sql`(CASE WHEN substring(${text} FROM 11 FOR 1) = '\\x54'::bytea THEN overlay(${text} PLACING '\\x74'::bytea FROM 11 FOR 1) ELSE ${text} END)`,
  cmp16: (a, b) => sql`${sql.raw(CMP16)}(${a}, ${b})`,
  orderedJoin: sql`JOIN`,
  ridInSet: (subquery) => sql`r.rid = ANY(ARRAY(${subquery}))`,
  // The SQL function of the migrations, which mirrors `valueRows` (see `ENTRIES`); the few
  // records whose data it cannot read keep every field's rows, which it finds by rid.
  fieldEntries: (name) => sql`${sql.raw(ENTRIES)}(r.data, ${name}::text, r.rid)`,
  // `records.data` is text, each record's JSON.stringify as written (never jsonb's form).
  dataHolds: (text) => sql`strpos(r.data, ${text}::text) > 0`,
  // json (not jsonb): the field's text comes back as stored, without building the whole document.
  dataField: (name) => sql`(r.data::json -> ${name}::text)::text`,
  // The JSON functions refuse a `\u0000` escape (text cannot hold U+0000) and a lone
  // surrogate's (`\ud800`: JSON.stringify's only other \u escapes are of control characters);
  // such rather rare data (or data merely holding the backslash text) is read whole and picked
  // in JS. The `strpos` first: most data holds no `\u` at all, and the pattern runs only where one does.
  dataFieldFallback: sql`(strpos(r.data, ${"\\u"}) > 0 AND r.data ~ ${"\\\\u(0000|d[89a-f])"})`,
  startsWithDate: (json) => sql`(${json}) ~ '^"[0-9]{4}-[0-9]{2}-[0-9]{2}'`,
  mapListEntries: (list, map) =>
    sql`(SELECT '[' || coalesce(string_agg(${map(sql`le.v::text`)}, ',' ORDER BY le.o), '') || ']' FROM json_array_elements((${list})::json) WITH ORDINALITY AS le(v, o))`,
};
