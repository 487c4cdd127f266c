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
import { acceptedPersonValues } from "./person-input.js";
import { newPersonData, PERSON_FIELDS, SYSTEM_FIELD_EDITABLE, withDerivedNames } from "./person.js";
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
  return _complete(row) ?? newPersonData(validateInput("person", withoutGeneratedNames(row)));
}

/**
 * A person row without the names the service generates (`SYSTEM_FIELD_EDITABLE`): the
 * fields a client may write, as an import lays them over a stored person.
 *
 * @example
 * withoutGeneratedNames({ first_name: "Ada", formatted_name: "Ada" }) // { first_name: "Ada" }
 */
export function withoutGeneratedNames(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in row) if (Object.hasOwn(row, k) && !Object.hasOwn(SYSTEM_FIELD_EDITABLE, k)) out[k] = row[k];
  return out;
}

// --- internal ---

const _NAMES: readonly string[] = Object.keys(PERSON_FIELDS);

/** The row as stored, when it holds every person field in schema order and each is accepted; else undefined. */
function _complete(row: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(row);
  if (keys.length !== _NAMES.length) return undefined;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== _NAMES[i]) return undefined;
  for (const k of keys) {
    // The generated names are derived again below, whatever the row holds.
    if (PERSON_FIELDS[k] === "system") continue;
    if (row[k] === undefined) return undefined; // left out, as a create leaves it out: the general path
    const problem = valueProblem(row[k]);
    if (problem) throw badRequest("invalid field value", `${JSON.stringify(k)}: ${problem}`);
  }
  // A value refused: the general path, which names it.
  const data = acceptedPersonValues(row, keys);
  // Complete and in schema order already: what `newPersonData` would lay it over.
  return data && withDerivedNames(data);
}
