/**
 * @module query/evaluate
 * The in-memory reference evaluator of a `ListQuery`. The memory Storage adapter uses it
 * directly, and every other adapter (SQLite) is tested against it, so its rules are the
 * query language's meaning. The values a filter sees come only from `toEntries`.
 */
import type { StoredRecord } from "../model/record.js";
import { toEntries, type Entry } from "./entries.js";
import { sortRecords } from "./sort-order.js";
import type { Filter, FilterValue, ListPage, ListQuery } from "../model/query.js";

/**
 * True when the record satisfies the query's filters combined by `mode` (states ignored).
 * With no filters, every record matches in either mode.
 *
 * @example
 * matchesFilters(record, parseListQuery(new URLSearchParams("last_name=Lovelace"), opts))
 */
export function matchesFilters(record: StoredRecord, query: ListQuery): boolean {
  if (query.filters.length === 0) return true;
  return query.mode === "OR"
    ? query.filters.some((f) => matchesFilter(record, f))
    : query.filters.every((f) => matchesFilter(record, f));
}

/** True when the record's state is one the query shows and it satisfies the filters. */
export function matchesQuery(record: StoredRecord, query: ListQuery): boolean {
  return query.states.includes(record.state) && matchesFilters(record, query);
}

/**
 * The page of matching records, in iteration order (the caller passes them in creation
 * order) or by `query.sort`, and the total number of matches.
 *
 * @example
 * evaluateList(allRecords, { filters: [], mode: "AND", states: ["updated"], page: 2, pageSize: 25 })
 * // { total: 60, records: [the 26th to the 50th match] }
 */
export function evaluateList(records: Iterable<StoredRecord>, query: ListQuery): ListPage<StoredRecord> {
  const start = (query.page - 1) * query.pageSize;
  const end = start + query.pageSize;
  if (query.sort) {
    const matches = [...records].filter((r) => matchesQuery(r, query));
    return { total: matches.length, records: sortRecords(matches, query.sort).slice(start, end) };
  }
  const page: StoredRecord[] = [];
  let total = 0;
  for (const record of records) {
    if (!matchesQuery(record, query)) continue;
    if (total >= start && total < end) page.push(record);
    total += 1;
  }
  return { total, records: page };
}

/** True when the record satisfies one filter (see `Filter` in model/query.ts for the rules). */
export function matchesFilter(record: StoredRecord, filter: Filter): boolean {
  const entries = entriesOf(record, filter);
  // Meta columns always hold full timestamps, so a value's date part applies to data fields only.
  const values = filter.meta ? filter.values.map((v) => ({ text: v.text, number: v.number })) : filter.values;
  switch (filter.op) {
    case "eq":
    case "raw":
    case "or":
    case "orlist":
      return values.some((v) => _hasEqual(entries, v));
    case "and":
    case "andlist":
      return values.every((v) => _hasEqual(entries, v));
    case "ne":
    case "none":
      return !values.some((v) => _hasEqual(entries, v));
    case "contains":
      return values.some((v) => entries.some((e) => e.text.includes(v.text)));
    case "near":
      return values.some((v) => entries.some((e) => e.folded.includes(v.text.toLowerCase())));
    case "startswith":
      return values.some((v) => entries.some((e) => e.text.startsWith(v.text)));
    case "startswithi":
      return values.some((v) => entries.some((e) => e.folded.startsWith(v.text.toLowerCase())));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const op = filter.op; // narrowed here, not inside the callbacks
      return values.some((v) => entries.some((e) => _inRange(op, e, v)));
    }
  }
}

/**
 * The comparable entries of the filtered field: for a meta field the record's own column
 * (one string entry), otherwise `toEntries` of the data value.
 */
export function entriesOf(record: StoredRecord, filter: Pick<Filter, "field" | "meta">): Entry[] {
  if (!filter.meta) return Object.hasOwn(record.data, filter.field) ? toEntries(record.data[filter.field]) : [];
  switch (filter.field) {
    case "id":
      return toEntries(record.id);
    case "created":
      return toEntries(record.created);
    case "last_updated":
      return toEntries(record.lastUpdated);
    default:
      return [];
  }
}

// --- internal ---

function _hasEqual(entries: Entry[], value: FilterValue): boolean {
  return entries.some((e) => e.text === value.text || (value.date !== undefined && e.text === value.date));
}

/**
 * Range comparison: numeric values against number entries only, text values against string
 * entries only. Text order is JS `<` (UTF-16 code units). SQLite's BINARY collation compares
 * UTF-8 bytes instead; the two orders differ only between characters outside the BMP and
 * U+E000..U+FFFF, which an adapter must accept or handle.
 */
function _inRange(op: "gt" | "gte" | "lt" | "lte", entry: Entry, value: FilterValue): boolean {
  let cmp: number;
  if (value.number !== undefined) {
    if (entry.kind !== "number" || entry.number === null) return false;
    cmp = entry.number === value.number ? 0 : entry.number < value.number ? -1 : 1;
  } else {
    if (entry.kind !== "string") return false;
    // A date-only value on the timestamp's day: gte includes it, lt excludes it (see FilterValue.date).
    if (value.date !== undefined && entry.text === value.date && (op === "gte" || op === "lt")) return op === "gte";
    cmp = entry.text === value.text ? 0 : entry.text < value.text ? -1 : 1;
  }
  switch (op) {
    case "gt":
      return cmp > 0;
    case "gte":
      return cmp >= 0;
    case "lt":
      return cmp < 0;
    case "lte":
      return cmp <= 0;
  }
}
