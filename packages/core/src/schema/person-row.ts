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
import { newPersonData, PERSON_FIELDS, setDerivedNames, SYSTEM_FIELD_EDITABLE, type PersonFieldKind } from "./person.js";
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
const _KINDS: readonly PersonFieldKind[] = _NAMES.map((k) => PERSON_FIELDS[k]!);

/**
 * The row as stored, when it holds every person field in schema order and each is accepted;
 * else undefined. One pass over the fields: each one's bounds (a 400, in field order), then
 * what `validatePersonInput` accepts of it; a refused value only marks the row for the
 * general path (which names it), the later fields' bounds still checked first, as before.
 */
function _complete(row: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(row);
  if (keys.length !== _NAMES.length) return undefined;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== _NAMES[i]) return undefined;
  // Complete and in schema order already: what `newPersonData` would lay it over.
  const data: Record<string, unknown> = { ...row };
  let refused = false;
  for (let i = 0; i < _NAMES.length; i++) {
    const k = _NAMES[i]!;
    const kind = _KINDS[i]!;
    const given = row[k];
    // The generated names are derived again below, whatever the row holds.
    if (kind !== "system") {
      if (given === undefined) return undefined; // left out, as a create leaves it out: the general path
      const problem = valueProblem(given);
      if (problem) throw badRequest("invalid field value", `${JSON.stringify(k)}: ${problem}`);
    }
    if (refused) continue;
    const value = personValue(kind, _references(kind, given));
    if (value === REFUSED) refused = true;
    else if (value !== given) data[k] = value;
  }
  return refused ? undefined : setDerivedNames(data);
}

/**
 * `normalizeReference(given)`, without its copy of a list that holds no object (a list
 * field's value is copied by `personValue` anyway).
 */
function _references(kind: PersonFieldKind, given: unknown): unknown {
  if (kind === "list" && Array.isArray(given) && !given.some((e) => typeof e === "object" && e !== null)) return given;
  return normalizeReference(given);
}
