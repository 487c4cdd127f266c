/**
 * @module query/parse
 * Turns a list request's query parameters into a `ListQuery` tree: paging and state
 * controls, then one `Filter` per `field` / `field__modifier` parameter. Pure: the current
 * time (for smart dates) and the field check are passed in. Every bad input is a 400
 * `RecordsError` whose detail names the parameter, the value and what is accepted.
 */
import { badRequest } from "../errors.js";
import { formatTimestamp } from "../time.js";
import { MAX_FILTERS, MAX_VALUE_LENGTH, MAX_VALUES_PER_FILTER } from "./limits.js";
import { parseControls } from "./parse-controls.js";
import { parseSort } from "./parse-sort.js";
import { resolveSmartDate } from "./smart-dates.js";
import { quoteForMessage as q, splitFilterKey } from "./split-key.js";
import {
  META_FIELDS,
  V2_ONLY_MODIFIERS,
  type Filter,
  type FilterValue,
  type ListQuery,
  type Modifier,
} from "../model/query.js";

/** What the parser needs beside the parameters. */
export interface ParseOptions {
  /** `andlist` / `orlist` are refused on v1 paths, naming the modifier. */
  surface: "v1" | "v2";
  /** The instant smart dates are resolved against. */
  now: Date;
  /**
   * When given, a filter on a data field it rejects is a 400 naming the field. Meta fields
   * (`id`, `created`, `last_updated`) are always known and never passed to it.
   */
  isKnownField?: (field: string) => boolean;
}

/** The parameter names that steer the list rather than filter it. */
const CONTROL_PARAMS: readonly string[] = ["mode", "include_deleted", "state", "page", "page_size", "limit", "sort"];

/**
 * Parses list query parameters (e.g. a `URLSearchParams`) into a `ListQuery`.
 *
 * @example
 * parseListQuery(new URLSearchParams("last_name=Lovelace&tags__and=a&tags__and=b&page_size=10"),
 *   { surface: "v1", now: clock.now() })
 * // { filters: [{ field: "last_name", op: "eq", ... }, { field: "tags", op: "and", values: [a, b] }],
 * //   mode: "AND", states: ["updated"], page: 1, pageSize: 10 }
 * // (with `sort=-created`, also sort: { field: "created", meta: true, descending: true })
 */
export function parseListQuery(params: Iterable<[string, string]>, opts: ParseOptions): ListQuery {
  const controls = new Map<string, string>();
  const filters: Filter[] = [];
  // Multi-value filters gather every occurrence of the same `field__op` into one filter.
  const gathered = new Map<string, Filter>();

  for (const [key, raw] of params) {
    if (CONTROL_PARAMS.includes(key)) {
      controls.set(key, raw); // the last occurrence wins, as in most web frameworks
      continue;
    }
    const { field, op } = splitFilterKey(key);
    _checkSurface(key, op, opts.surface);
    const meta = (META_FIELDS as readonly string[]).includes(field);
    if (!meta && opts.isKnownField && !opts.isKnownField(field)) {
      const where = key === field ? "" : `${q(key)}: `;
      throw badRequest("unknown field", `${where}${q(field)} is not a field of this resource type`);
    }
    const values = _valueTexts(key, op, raw).map((text) => _toFilterValue(op, meta, text, opts.now));

    const groupKey = `${field}__${op}`;
    const existing = MULTI_VALUE.has(op) ? gathered.get(groupKey) : undefined;
    if (existing) {
      existing.values.push(...values);
      _checkValueCount(key, existing.values.length);
      continue;
    }
    if (filters.length === MAX_FILTERS) {
      throw badRequest(
        "too many filters",
        `more than ${MAX_FILTERS} filters in one request (at ${q(key)}); send at most ${MAX_FILTERS}, ` +
          `or give one multi-value filter several values (field__or, field__orlist)`,
      );
    }
    _checkValueCount(key, values.length);
    const filter: Filter = { field, meta, op, values };
    filters.push(filter);
    if (MULTI_VALUE.has(op)) gathered.set(groupKey, filter);
  }

  const sort = parseSort(controls.get("sort"), opts.isKnownField);
  return { filters, ...parseControls(controls), ...(sort ? { sort } : {}) };
}

// --- internal ---

/** Modifiers whose repeated occurrences merge into one filter. */
const MULTI_VALUE: ReadonlySet<Modifier> = new Set(["and", "or", "andlist", "orlist", "none"]);

/** Modifiers whose each occurrence is a comma-separated list. */
const COMMA_LIST: ReadonlySet<Modifier> = new Set(["andlist", "orlist", "none"]);

/** Modifiers whose value may be a smart date. */
const DATE_AWARE: ReadonlySet<Modifier> = new Set(["eq", "ne", "gt", "gte", "lt", "lte"]);

/** A finite decimal number, as a query value: optional minus, digits, optional fraction. */
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;
const TIMESTAMP_PREFIX_RE = /^\d{4}-\d{2}-\d{2}T/;

function _checkSurface(key: string, op: Modifier, surface: ParseOptions["surface"]): void {
  if (surface === "v1" && V2_ONLY_MODIFIERS.includes(op)) {
    throw badRequest(
      `modifier ${op} is v2 only`,
      `${q(key)}: the ${op} modifier is available on /api/v2/ paths only; ` +
        `on v1 repeat the parameter with __${op === "andlist" ? "and" : "or"} (one value each)`,
    );
  }
}

/** The value texts of one occurrence: comma lists split (blank items dropped, items trimmed). */
function _valueTexts(key: string, op: Modifier, raw: string): string[] {
  const texts = COMMA_LIST.has(op)
    ? raw
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    : [raw];
  if (texts.length === 0) {
    throw badRequest("empty value list", `${q(key)}: give at least one comma-separated value`);
  }
  for (const text of texts) {
    if (text.length > MAX_VALUE_LENGTH) {
      throw badRequest(
        "filter value too long",
        `${q(key)}: a value of ${text.length} characters; at most ${MAX_VALUE_LENGTH} are accepted`,
      );
    }
  }
  return texts;
}

function _checkValueCount(key: string, count: number): void {
  if (count > MAX_VALUES_PER_FILTER) {
    throw badRequest(
      "too many filter values",
      `${q(key)}: ${count} values; at most ${MAX_VALUES_PER_FILTER} are accepted in one filter`,
    );
  }
}

/**
 * Interprets one value: `raw` literally, smart dates as timestamps, decimals also as numbers,
 * except on meta fields, whose columns are always text (`created__gte=2026` compares text).
 */
function _toFilterValue(op: Modifier, meta: boolean, text: string, now: Date): FilterValue {
  if (op === "raw") return { text };
  if (DATE_AWARE.has(op)) {
    const date = resolveSmartDate(text, now);
    const resolved = date ? formatTimestamp(date) : text;
    // Data fields may hold date-only values: let them compare with a timestamp by day.
    if (!meta && TIMESTAMP_PREFIX_RE.test(resolved)) return { text: resolved, date: resolved.slice(0, 10) };
    if (date) return { text: resolved };
  }
  if (!meta && DECIMAL_RE.test(text)) {
    const number = Number(text);
    if (Number.isFinite(number)) return { text, number };
  }
  return { text };
}
