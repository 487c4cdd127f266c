/**
 * @module schema/field-values
 * What every adapter's `listFieldValues` and `countFieldValues` check first: the field names
 * they are asked for are data field names (`FIELD_NAME_RE`), so an adapter may put them in
 * a JSON path or key; and the key under which `countFieldValues` groups values.
 */
import { badRequest } from "../errors.js";
import { FIELD_NAME_RE } from "./record-limits.js";

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
