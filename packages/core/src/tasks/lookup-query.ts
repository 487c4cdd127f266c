/**
 * @module tasks/lookup-query
 * A task's `query` (a JSON object: field names, with an optional `__modifier`, to values)
 * turned into the list parameters it stands for and parsed by `parseListQuery`, so tasks
 * match exactly what a list with the same filters shows: same modifiers, smart dates,
 * `mode`, limits and messages.
 */
import { badRequest } from "../errors.js";
import { parseListQuery } from "../query/parse.js";
import type { ListQuery } from "../model/query.js";
import { PERSON_FIELDS } from "../schema/person.js";
import type { ScanQuery } from "../storage/record-store.js";

/** The lookup query as stored on a task: each key to one value or several. */
export type LookupQuery = Record<string, string | string[]>;

/** Which list controls a lookup query may hold beside filters. */
export interface LookupOptions {
  /** `include_deleted` and `state` too (recalc visits deleted records; bulk changes never do). */
  allowStates?: boolean;
}

/**
 * Checks the shape of a lookup query and returns it normalized: numbers and booleans
 * become their text, arrays are kept as repeated parameters. Throws 400 naming the key.
 *
 * @example
 * normalizeLookup({ tags__or: ["gala", "vip"], mode: "OR", age__gte: 18 })
 * // { tags__or: ["gala", "vip"], mode: "OR", age__gte: "18" }
 */
export function normalizeLookup(query: unknown, opts: LookupOptions = {}): LookupQuery {
  if (typeof query !== "object" || query === null || Array.isArray(query)) {
    throw badRequest("invalid query", "query must be a JSON object of field names (optionally with __modifier) to values");
  }
  const out: LookupQuery = {};
  // Own enumerable keys only; `__proto__` (an own key after JSON.parse) would set the
  // prototype of `out` instead of a filter, so it is refused.
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (key === "__proto__") throw badRequest("invalid query", 'query key "__proto__" is not accepted: it is not a field name a record can hold');
    if (!_allowedKey(key, opts)) {
      throw badRequest(
        "invalid query",
        `query key ${JSON.stringify(key)} is not accepted: a task visits every match, so paging and order do not apply` +
          (opts.allowStates ? "" : ", and only live records are changed (no include_deleted or state)"),
      );
    }
    if (Array.isArray(value)) {
      if (value.length === 0) throw badRequest("invalid query", `query ${JSON.stringify(key)}: give at least one value`);
      out[key] = value.map((v) => _text(key, v));
    } else {
      out[key] = _text(key, value);
    }
  }
  return out;
}

/**
 * The parsed query of a lookup, as `Storage.scanRecords` takes it. Smart dates resolve
 * against `now` (a task passes the time it was requested, so a resumed task matches what
 * it matched when it was queued). On `person`, an unknown field is a 400.
 */
export function parseLookup(lookup: LookupQuery, type: string, now: Date): ScanQuery {
  const params: [string, string][] = [];
  for (const [key, value] of Object.entries(lookup)) {
    for (const v of Array.isArray(value) ? value : [value]) params.push([key, v]);
  }
  const parsed: ListQuery = parseListQuery(params, {
    surface: "v1",
    now,
    isKnownField: type === "person" ? (f) => Object.hasOwn(PERSON_FIELDS, f) : undefined,
  });
  return { filters: parsed.filters, mode: parsed.mode, states: parsed.states };
}

// --- internal ---

const _PAGING = ["page", "page_size", "limit", "sort"];
const _STATES = ["include_deleted", "state"];

function _allowedKey(key: string, opts: LookupOptions): boolean {
  if (_PAGING.includes(key)) return false;
  return opts.allowStates === true || !_STATES.includes(key);
}

function _text(key: string, v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "boolean") return String(v);
  throw badRequest("invalid query", `query ${JSON.stringify(key)}: a value is a string (or an array of strings), not ${_kind(v)}`);
}

function _kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a nested array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}
