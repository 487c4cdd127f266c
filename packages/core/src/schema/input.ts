/**
 * @module schema/input
 * The one entry point that checks a create or update body for a resource type: the person
 * schema is closed and typed; every other type is open (any JSON fields with plain names).
 */
import { badRequest } from "../errors.js";
import { checkDataEventUpdate } from "../events/data-event-update.js";
import { MAX_TEXT_VALUE_LENGTH } from "../query/limits.js";
import { validatePersonInput } from "./person-input.js";
import { normalizeReference } from "./references.js";

/** The shape of a data field name on open types. */
export const FIELD_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The data fields of `body`, validated and normalized for `type` (references written as
 * `{display_value, ref}` are stored as the URI). Fields set to `undefined` are left out.
 * Throws 400 naming every bad field. `before` is the stored data of the record an update
 * patches: a data_event's read-only fields and its `tags`/`expires_at` are checked against it.
 *
 * @example
 * validateInput("journal", { subject: "Call", contact_ref: { ref: "/demo/person/0123456789abcdef01234567/" } })
 */
export function validateInput(type: string, body: unknown, before?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("invalid body", `the body must be a JSON object of ${type} fields`);
  }
  const fields = body as Record<string, unknown>;
  _checkValues(fields);
  if (type === "person") return validatePersonInput(fields);
  const keys = Object.keys(fields).filter((k) => fields[k] !== undefined);
  const bad = keys.filter((k) => !FIELD_NAME_RE.test(k));
  if (bad.length) {
    throw badRequest(
      "invalid field name",
      `${bad.map((k) => JSON.stringify(k)).join(", ")}: a field name is letters, digits and underscores, not starting with a digit`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = normalizeReference(fields[k]);
  if (type === "data_event" && before) checkDataEventUpdate(before, out);
  return out;
}

// --- internal ---

/**
 * Values every type refuses: numbers JSON cannot round-trip (`1e400` parses as Infinity and
 * would be stored as null) and texts past MAX_TEXT_VALUE_LENGTH (each is indexed, see
 * docs/decisions.md). Walks lists and objects, whose depth the server bounds.
 */
function _checkValues(fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    const problem = _valueProblem(value);
    if (problem) throw badRequest("invalid field value", `${JSON.stringify(key)}: ${problem}`);
  }
}

function _valueProblem(value: unknown): string | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return "a number too large to store; send it as a string";
  if (typeof value === "string" && value.length > MAX_TEXT_VALUE_LENGTH) {
    return `a text of ${value.length} characters; at most ${MAX_TEXT_VALUE_LENGTH} are accepted`;
  }
  if (Array.isArray(value)) return value.map(_valueProblem).find((p) => p !== undefined);
  if (typeof value === "object" && value !== null) return Object.values(value).map(_valueProblem).find((p) => p !== undefined);
  return undefined;
}
