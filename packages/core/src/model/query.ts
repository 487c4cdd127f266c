/**
 * @module model/query
 * The typed query tree that `parseListQuery` produces and that every Storage adapter
 * compiles (SQLite to SQL, the memory adapter through `evaluate`).
 */

/** Every modifier of the spec's table; `eq` is also what a bare `field=value` means. */
export const MODIFIERS = [
  "and",
  "andlist",
  "contains",
  "eq",
  "gt",
  "gte",
  "lt",
  "lte",
  "ne",
  "near",
  "none",
  "or",
  "orlist",
  "raw",
  "startswith",
  "startswithi",
] as const;
export type Modifier = (typeof MODIFIERS)[number];

/** Modifiers refused on v1 paths (the spec marks them v2 only). */
export const V2_ONLY_MODIFIERS: readonly Modifier[] = ["andlist", "orlist"];

/**
 * Fields that live on the record itself rather than in `data`; filters on them compare
 * the record's own columns. `created`/`last_updated` hold timestamps in the spec format.
 */
export const META_FIELDS = ["id", "created", "last_updated"] as const;
export type MetaField = (typeof META_FIELDS)[number];

/**
 * One comparison value, already interpreted:
 * - `text`: compared with the stored value's text form (strings as stored, numbers via
 *   String(), booleans "true"/"false");
 * - `number`: only set when the query text is a finite decimal number; range modifiers
 *   (gt/gte/lt/lte) then compare numerically against numeric stored values only.
 * A smart date is resolved by the parser into `text` (a timestamp) before it gets here.
 */
export interface FilterValue {
  text: string;
  number?: number;
  /**
   * Set when `text` is a timestamp (a smart date or a written one) in a filter on a data
   * field: the `YYYY-MM-DD` part. Date-only stored values (`end_date: "2026-11-22"`) then
   * compare with the timestamp by day: eq/ne also match the date itself, `gte` includes it,
   * `lt` excludes it (gt and lte need no change: the date sorts just before its timestamps).
   */
  date?: string;
}

/**
 * One filter: `field__op=value(s)`.
 * Semantics (the in-memory `evaluate` is the reference; SQLite must agree exactly):
 * - a stored value is a scalar or a list; a list matches when ANY entry matches (for the
 *   positive modifiers), and `null`/absent never matches a positive modifier;
 * - eq / raw: whole text equal (case-sensitive), any of `values` (one value);
 * - ne: no entry equals the value (absent/null fields match);
 * - contains: substring, case-sensitive; near: substring, case-insensitive;
 * - startswith: prefix, case-sensitive; startswithi: prefix after `toLowerCase()` of both;
 * - gt/gte/lt/lte: numeric when `value.number` is set (numeric stored values only),
 *   otherwise text comparison by UTF-16 code units (string stored values only);
 * - and / andlist: every value equals some entry; or / orlist: some value equals some entry;
 * - none: no value equals any entry (absent/null fields match).
 */
export interface Filter {
  field: string;
  /** True for `id`, `created`, `last_updated`: compare the record's own columns. */
  meta: boolean;
  op: Modifier;
  values: FilterValue[];
}

export type RecordState = "updated" | "deleted";

/**
 * The order of a list (`sort=field` / `sort=-field`); without it a list is in insertion order.
 * A meta field orders by the record's own column. A data field orders by its value's
 * entries (`toEntries`): first the records with a number entry, by their least number;
 * then those with another entry, by their least lower-cased text (`Entry.folded`) in code
 * point order (UTF-8 byte order, what both databases compare); last those with no entry
 * (absent, null, empty list). `descending` reverses the order within the first two parts,
 * not the parts; ties keep insertion order (reversed when descending). core's
 * `sortRecords` is the reference.
 */
export interface ListSort {
  field: string;
  /** True for `id`, `created`, `last_updated`. */
  meta: boolean;
  descending: boolean;
}

/** A parsed list request: what to match and which page to return. */
export interface ListQuery {
  filters: Filter[];
  /** How several filters combine. Default AND. */
  mode: "AND" | "OR";
  /**
   * Which states are visible: default `["updated"]`; `include_deleted=Y` gives both;
   * `state=deleted` gives only deleted ones.
   */
  states: RecordState[];
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The order of the matches; insertion order when absent. */
  sort?: ListSort;
  /**
   * When set, the most the page's records may hold, counted in page order as the length of
   * each one's data as JSON text (UTF-16 code units) plus `LIST_ELEMENT_MIN_OVERHEAD`: an
   * adapter stops reading at the first record past it and throws `listAnswerTooLarge(records
   * before it)` (`dataBudget` does both), so a page of large records is never read whole.
   * `engine.list` sets it to `MAX_LIST_ANSWER_LENGTH`.
   */
  maxDataLength?: number;
}

/** Result of a list: the page plus the total count of matches. */
export interface ListPage<R> {
  total: number;
  records: R[];
  /**
   * The data fields the adapter answered by a scan of the collection (no complete value
   * index of them: `readsIndex`), and the collection's size: what earns a field its index
   * (`noteScannedFields`). Absent when no field was scanned.
   */
  scanned?: ScanNote;
}

/** What a list scanned (`ListPage.scanned`). */
export interface ScanNote {
  fields: string[];
  /** The records of the collection (every state). */
  collection: number;
}
