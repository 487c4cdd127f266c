/**
 * @module schema/record-limits
 * The bounds on what one client write may make of a record (see `query/limits`): field
 * names, list lengths, how many fields and values a record holds and how long its data is.
 * Create, update, bulk updates and uploads all pass here, so each bound has one 400 for
 * every way of writing.
 */
import { badRequest } from "../errors.js";
import {
  MAX_FIELD_NAME_LENGTH,
  MAX_FIELDS_PER_RECORD,
  MAX_LIST_ENTRIES,
  MAX_RECORD_DATA_LENGTH,
  MAX_TEXT_VALUE_LENGTH,
  MAX_VALUES_PER_RECORD,
} from "../query/limits.js";

/** The shape of a data field name on open types. */
export const FIELD_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Names refused as data fields although they have the right shape: the members of every
 * JavaScript object (and `prototype`). Code and templates reading `data[name]` would find
 * the inherited member for a record without the field, so a record may not have one.
 */
const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "prototype",
  "toLocaleString",
  "toString",
  "valueOf",
]);

/**
 * Throws 400 naming every field name of `names` an open type refuses: malformed, longer
 * than MAX_FIELD_NAME_LENGTH, or reserved.
 *
 * @example
 * checkFieldNames(["subject", "constructor"]) // throws bad_request "invalid field name"
 */
export function checkFieldNames(names: readonly string[]): void {
  const malformed = names.filter((k) => !FIELD_NAME_RE.test(k));
  if (malformed.length) {
    throw badRequest(
      "invalid field name",
      `${_list(malformed)}: a field name is letters, digits and underscores, not starting with a digit`,
    );
  }
  const long = names.filter((k) => k.length > MAX_FIELD_NAME_LENGTH);
  if (long.length) {
    throw badRequest(
      "invalid field name",
      `${_list(long)}: a field name is at most ${MAX_FIELD_NAME_LENGTH} characters long`,
    );
  }
  checkReservedFieldNames(names);
}

/**
 * Throws 400 `reserved field name` naming every name of `names` in `RESERVED_FIELD_NAMES`.
 * Every type asks this first (person too), and the server asks it for a JSON body's own
 * `__proto__` key, so JSON bodies and uploads get the same answer.
 *
 * @example
 * checkReservedFieldNames(["name", "toString"]) // throws bad_request "reserved field name"
 */
export function checkReservedFieldNames(names: readonly string[]): void {
  const reserved = names.filter((k) => RESERVED_FIELD_NAMES.has(k));
  if (reserved.length) {
    throw badRequest(
      "reserved field name",
      `${_list(reserved)}: the names of JavaScript object members (${[...RESERVED_FIELD_NAMES].join(", ")}) are not accepted as field names`,
    );
  }
}

/**
 * Why a written value is refused, or undefined: a number JSON cannot round-trip (`1e400`
 * parses as Infinity and would be stored as null), a text past MAX_TEXT_VALUE_LENGTH or a
 * list past MAX_LIST_ENTRIES, at any depth. A list's length is checked before its entries,
 * so an oversized list is refused without being walked.
 *
 * @example
 * valueProblem(new Array(1001).fill(0)) // "a list of 1001 entries; at most 1000 are accepted"
 */
export function valueProblem(value: unknown): string | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return "a number too large to store; send it as a string";
  if (typeof value === "string" && value.length > MAX_TEXT_VALUE_LENGTH) {
    return `a text of ${value.length} characters; at most ${MAX_TEXT_VALUE_LENGTH} are accepted`;
  }
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value) && value.length > MAX_LIST_ENTRIES) {
    return `a list of ${value.length} entries; at most ${MAX_LIST_ENTRIES} are accepted in one list`;
  }
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const problem = valueProblem(item);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Throws 400 when the data a write would store (`after`) passes a record bound that the
 * record's data before the write (`before`, none on create) did not already pass: a write
 * never makes a record worse, and a record stored before a bound existed stays writable.
 * Fields count only on open types (the person schema is closed).
 *
 * @example
 * checkRecordLimits("journal", { ...before.data, ...patch }, before.data)
 */
export function checkRecordLimits(type: string, after: Record<string, unknown>, before?: Record<string, unknown>): void {
  if (type !== "person") {
    const fields = Object.keys(after);
    const had = before ? Object.keys(before).length : 0;
    if (fields.length > MAX_FIELDS_PER_RECORD && fields.length > had) {
      const added = before ? fields.filter((f) => !Object.hasOwn(before, f)) : fields;
      throw badRequest(
        "too many fields",
        `a record holds at most ${MAX_FIELDS_PER_RECORD} fields; this write would give it ${fields.length} ` +
          `(${added.length} new: ${_list(added)})`,
      );
    }
  }
  const { values, jsonAtMost } = _measure(after);
  if (values > MAX_VALUES_PER_RECORD && values > (before ? _measure(before).values : 0)) {
    throw badRequest(
      "too many values",
      `a record holds at most ${MAX_VALUES_PER_RECORD} values (every field value, list entry and object member counts one); ` +
        `this write would give it ${values}`,
    );
  }
  // Serializing a person costs ~8 µs (an import's whole plan is ~30): only when the bound
  // from the walk above does not already keep it under the limit.
  if (jsonAtMost <= MAX_RECORD_DATA_LENGTH) return;
  const length = JSON.stringify(after).length;
  if (length > MAX_RECORD_DATA_LENGTH && length > (before ? JSON.stringify(before).length : 0)) {
    throw badRequest(
      "record too large",
      `a record's data is at most ${MAX_RECORD_DATA_LENGTH} characters as JSON; this write would make it ${length}`,
    );
  }
}

// --- internal ---

/** Names for a message: at most 10, each cut at 60 characters, so a huge body cannot make a huge error. */
function _list(names: readonly string[]): string {
  const shown = names.slice(0, 10).map((k) => JSON.stringify(k.length > 60 ? `${k.slice(0, 60)}...` : k));
  return names.length > 10 ? `${shown.join(", ")} and ${names.length - 10} more` : shown.join(", ");
}

/**
 * The values in `data` at any depth (each field value, list entry and object member; the
 * data object itself not), and a bound on the length of its JSON text: a text of n
 * characters takes at most 6n + 2 (every one escaped as `\uXXXX`), a number at most 24, a
 * name its text and a colon, each value a comma. Anything but JSON's own values (a Date,
 * an object with `toJSON`, a bigint) makes the bound infinite, so that the caller
 * serializes it as before.
 */
function _measure(data: Record<string, unknown>): { values: number; jsonAtMost: number } {
  let n = 0;
  let bound = 2;
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value !== data) n += 1;
    bound += 1; // its comma
    switch (typeof value) {
      case "string":
        bound += 6 * value.length + 2;
        break;
      case "number":
        bound += 24;
        break;
      case "boolean":
      case "undefined":
        bound += 5;
        break;
      case "object":
        if (value === null) bound += 4;
        else if (Array.isArray(value)) {
          bound += 2;
          for (const item of value) stack.push(item);
        } else if (_isPlainObject(value)) {
          bound += 2;
          for (const key in value) {
            if (!Object.hasOwn(value, key)) continue;
            bound += 6 * key.length + 3;
            stack.push((value as Record<string, unknown>)[key]);
          }
        } else bound = Infinity;
        break;
      default:
        bound = Infinity;
    }
  }
  return { values: n, jsonAtMost: bound };
}

function _isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}
