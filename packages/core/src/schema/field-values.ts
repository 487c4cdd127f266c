/**
 * @module schema/field-values
 * What every adapter's `listFieldValues` and `countFieldValues` check first: the field names
 * they are asked for are data field names (`FIELD_NAME_RE`), so an adapter may put them in
 * a JSON path or key; the key under which `countFieldValues` groups values; and the date
 * cut it may group by (`DateCut`), the reference every adapter's SQL must agree with.
 */
import { badRequest } from "../errors.js";
import { FIELD_NAME_RE } from "./record-limits.js";
import type { DateCut } from "../storage/record-store.js";

/**
 * Throws a 400 naming the first of `fields` that is not a data field name.
 *
 * @example
 * requireFieldNames(["start_date", "title"]); // fine
 * requireFieldNames(["a.b"]); // 400 invalid field
 */
export function requireFieldNames(fields: readonly string[]): void {
  for (const f of fields) {
    if (typeof f !== "string" || !FIELD_NAME_RE.test(f)) throw badRequest("invalid field", `${JSON.stringify(String(f).slice(0, 64))} is not a field name`);
  }
}

/**
 * The key under which `countFieldValues` groups a record's values: their JSON text, absent
 * kept apart from null.
 *
 * @example
 * fieldValuesKey(["a", undefined]) !== fieldValuesKey(["a", null]) // true
 */
export function fieldValuesKey(values: readonly unknown[]): string {
  return values.map((v) => (v === undefined ? "-" : JSON.stringify(v))).join("\u0001");
}

const _DATE_CUTS: readonly number[] = [4, 7, 10] satisfies DateCut[];

const _DATE_START_RE = /^\d{4}-\d{2}-\d{2}/;

/**
 * A stored value cut to its first `length` characters where it is text starting with a date
 * (`YYYY-MM-DD`, whatever follows: a time, a zone offset), each entry of a list cut alike;
 * any other value is left whole. Cutting twice changes nothing.
 *
 * @example
 * cutDates("2026-03-09T10:00:00+02:00", 7) // "2026-03"
 * cutDates(["2026-03-09", "vip", 3], 4) // ["2026", "vip", 3]
 */
export function cutDates(value: unknown, length: DateCut): unknown {
  if (typeof value === "string") return _DATE_START_RE.test(value) ? value.slice(0, length) : value;
  return Array.isArray(value) ? value.map((e) => cutDates(e, length)) : value;
}

/**
 * Throws a 400 unless `cuts` (one entry per field asked for, undefined for none) holds
 * only `DateCut`s: adapters put a cut's length into their SQL.
 *
 * @example
 * requireDateCuts([7, undefined], 2); // fine
 * requireDateCuts([5], 1); // 400 invalid cut
 */
export function requireDateCuts(cuts: readonly (number | undefined)[] | undefined, fieldCount: number): void {
  if (cuts === undefined) return;
  if (cuts.length > fieldCount) throw badRequest("invalid cut", `${cuts.length} cuts for ${fieldCount} fields`);
  for (const c of cuts) {
    if (c !== undefined && !_DATE_CUTS.includes(c)) throw badRequest("invalid cut", `${JSON.stringify(c)} is not a date cut (4, 7 or 10)`);
  }
}
