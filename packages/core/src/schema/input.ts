/**
 * @module schema/input
 * The one entry point that checks a create or update body for a resource type: the person
 * schema is closed and typed; every other type is open (any JSON fields with plain names).
 */
import { badRequest } from "../errors.js";
import { checkDataEventUpdate } from "../events/data-event-update.js";
import { validatePersonInput } from "./person-input.js";
import { checkFieldNames, checkReservedFieldNames, valueProblem } from "./record-limits.js";
import { normalizeReference } from "./references.js";

export { FIELD_NAME_RE } from "./record-limits.js";

/**
 * The data fields of `body`, validated and normalized for `type` (references written as
 * `{display_value, ref}` are stored as the URI). Fields set to `undefined` are left out.
 * Throws 400 naming every bad field (names and values as `schema/record-limits` says).
 * `before` is the stored data of the record an update patches: a data_event's read-only
 * fields and its `tags`/`expires_at` are checked against it. The record-wide bounds are
 * checked on the merged data by the caller (`checkRecordLimits`).
 *
 * @example
 * validateInput("journal", { subject: "Call", contact_ref: { ref: "/demo/person/0123456789abcdef01234567/" } })
 */
export function validateInput(type: string, body: unknown, before?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("invalid body", `the body must be a JSON object of ${type} fields`);
  }
  const fields = body as Record<string, unknown>;
  checkReservedFieldNames(Object.keys(fields));
  _checkValues(fields);
  if (type === "person") return validatePersonInput(fields);
  const keys = Object.keys(fields).filter((k) => fields[k] !== undefined);
  checkFieldNames(keys);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = normalizeReference(fields[k]);
  if (type === "data_event" && before) checkDataEventUpdate(before, out);
  return out;
}

// --- internal ---

/**
 * Values every type refuses (see `valueProblem`; each is indexed, see docs/decisions.md).
 * Walks lists and objects, whose depth the server bounds.
 */
function _checkValues(fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    const problem = valueProblem(value);
    if (problem) throw badRequest("invalid field value", `${JSON.stringify(key.slice(0, 60))}: ${problem}`);
  }
}
