/**
 * @module schema/person-row
 * A whole person as an export line or an import row holds it (every field, the generated
 * names too) turned into the data a create stores: what `derive("person",
 * validateInput("person", row minus the generated names))` gives, in one pass when the row
 * is already complete. The import's hot path: a person is ~77 fields, and every per-field
 * copy of it costs ~0.2 µs a field, where one spread of the parsed row costs under 1 µs.
 */
import { badRequest } from "../errors.js";
import { validateInput } from "./input.js";
import { personValue, REFUSED } from "./person-input.js";
import { newPersonData, PERSON_FIELDS, SYSTEM_FIELD_EDITABLE, withDerivedNames } from "./person.js";
import { normalizeReference } from "./references.js";
import { valueProblem } from "./record-limits.js";

/**
 * The stored data of a person from a whole row: the generated names (`formatted_name`,
 * `salutation`, `sortable_name`) are ignored and derived again, every other field is
 * checked and normalized as a create's body is. Throws the 400s `validateInput` throws.
 *
 * @example
 * personRowData({ ...exported.data }).formatted_name // derived from the names, not copied
 */
export function personRowData(row: Record<string, unknown>): Record<string, unknown> {
  return _complete(row) ?? newPersonData(validateInput("person", _withoutGenerated(row)));
}

// --- internal ---

const _NAMES: readonly string[] = Object.keys(PERSON_FIELDS);

/** The row as stored, when it holds every person field in schema order and each is accepted; else undefined. */
function _complete(row: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(row);
  if (keys.length !== _NAMES.length) return undefined;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== _NAMES[i]) return undefined;
  const data: Record<string, unknown> = { ...row };
  for (const k of keys) {
    const kind = PERSON_FIELDS[k]!;
    if (kind === "system") continue;
    if (data[k] === undefined) return undefined; // left out, as a create leaves it out
    const problem = valueProblem(data[k]);
    if (problem) throw badRequest("invalid field value", `${JSON.stringify(k)}: ${problem}`);
    const given = data[k];
    const value = personValue(kind, normalizeReference(given));
    if (value === REFUSED) return undefined;
    if (value !== given) data[k] = value;
  }
  // Complete and in schema order already: what `newPersonData` would lay it over.
  return withDerivedNames(data);
}

function _withoutGenerated(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!Object.hasOwn(SYSTEM_FIELD_EDITABLE, k)) out[k] = v;
  return out;
}
