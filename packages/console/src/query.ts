/**
 * @module query
 * The list view's query: filters (`field__modifier=value`) and the controls (page,
 * page_size, include_deleted, sort), split and joined so the URL, the filter builder and
 * the raw query string stay one and the same.
 */
import { decodeOr } from "./text.js";

/** Parameters that steer the list rather than filter it (`q` and `order` are the console's own). */
const CONTROLS = ["page", "page_size", "limit", "include_deleted", "state", "mode", "sort", "q", "order"] as const;

/** The console's own parameters, never sent to the list. */
const CONSOLE_PARAMS = ["q", "order"] as const;

/** The modifiers offered (v1), `eq` written as the bare field. */
export const MODIFIERS = ["eq", "ne", "startswithi", "startswith", "contains", "gt", "gte", "lt", "lte", "or", "and", "none"] as const;

/** The service's smart dates (core's list), offered as values for date fields. */
export { SMART_DATES } from "@records-service/core";

/** One row of the filter builder. */
export interface FilterRow {
  field: string;
  modifier: string;
  value: string;
}

/** The filter rows of `params` (controls left out). */
export function filtersOf(params: URLSearchParams): FilterRow[] {
  const rows: FilterRow[] = [];
  for (const [key, value] of params) {
    if ((CONTROLS as readonly string[]).includes(key)) continue;
    const cut = key.lastIndexOf("__");
    const modifier = cut > 0 ? key.slice(cut + 2) : "";
    if (cut > 0 && (MODIFIERS as readonly string[]).includes(modifier)) rows.push({ field: key.slice(0, cut), modifier, value });
    else rows.push({ field: key, modifier: "eq", value });
  }
  return rows;
}

/** `params` with its filters replaced by `rows` (empty fields dropped) and paging reset. */
export function withFilters(params: URLSearchParams, rows: readonly FilterRow[]): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of params) if ((CONTROLS as readonly string[]).includes(k) && k !== "page") out.append(k, v);
  for (const r of rows) {
    if (!r.field.trim()) continue;
    out.append(r.modifier === "eq" ? r.field.trim() : `${r.field.trim()}__${r.modifier}`, r.value);
  }
  return out;
}

/** The raw query string of the filters. */
export function rawQueryOf(params: URLSearchParams): string {
  return decodeOr(withFilters(new URLSearchParams(), filtersOf(params)).toString().replace(/\+/g, "%20"));
}

/** `params` with its filters taken from a raw query string (`a=1&b__gte=today`). */
export function withRawQuery(params: URLSearchParams, raw: string): URLSearchParams {
  return withFilters(params, filtersOf(new URLSearchParams(raw.trim().replace(/^\?/, ""))));
}

/** True for field names or values that look like dates, where smart dates make sense. */
export function isDateLike(field: string, sample: unknown): boolean {
  if (/(^|_)(date|created|updated|since|anniversary|at)$|date_|_date/.test(field)) return true;
  return typeof sample === "string" && /^\d{4}-\d{2}-\d{2}/.test(sample);
}

/**
 * The list's order as the API's `sort` (`last_name`, `-created`), or undefined for the
 * service's own (oldest first). `order=newest`, from links made before the API could sort,
 * is newest first.
 *
 * @example
 * sortOf(new URLSearchParams("order=newest")) // "-created"
 */
export function sortOf(params: URLSearchParams): string | undefined {
  return params.get("sort") || (params.get("order") === "newest" ? "-created" : undefined);
}

/** `params` as the list API takes them: the console's own parameters left out, the order as `sort`. */
export function apiParams(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const k of CONSOLE_PARAMS) out.delete(k);
  const sort = sortOf(params);
  if (sort) out.set("sort", sort);
  return out;
}
