/**
 * @module query/split-key
 * Turns one filter parameter name (`field` or `field__modifier`) into its field and
 * modifier, rejecting unknown modifiers and malformed field names with a 400.
 */
import { badRequest } from "../errors.js";
import { MAX_FIELD_NAME_LENGTH } from "./limits.js";
import { MODIFIERS, type Modifier } from "../model/query.js";
import { FIELD_NAME_RE } from "../schema/input.js";


/**
 * Splits a filter key at its LAST `__`; a key without `__` is a bare field (`eq`).
 * The suffix must be one of `MODIFIERS`, so a field whose own name contains `__` is
 * filtered with an explicit modifier (`a__b__eq`).
 *
 * @example
 * splitFilterKey("last_name") // { field: "last_name", op: "eq" }
 * splitFilterKey("tags__andlist") // { field: "tags", op: "andlist" }
 * splitFilterKey("first_name__foo") // throws RecordsError("bad_request", "unknown modifier", ...)
 */
export function splitFilterKey(key: string): { field: string; op: Modifier } {
  const at = key.lastIndexOf("__");
  const field = at < 0 ? key : key.slice(0, at);
  const suffix = at < 0 ? "eq" : key.slice(at + 2);
  if (!_isModifier(suffix)) {
    throw badRequest(
      "unknown modifier",
      `${quoteForMessage(key)}: modifier ${quoteForMessage(suffix)} is not one of ${MODIFIERS.join(", ")}`,
    );
  }
  if (!FIELD_NAME_RE.test(field) || field.length > MAX_FIELD_NAME_LENGTH) {
    throw badRequest(
      "bad field name",
      `${key === field ? "" : `${quoteForMessage(key)}: `}field name ${quoteForMessage(field)} is not accepted; ` +
        `a field name starts with a letter or _, ` +
        `continues with letters, digits or _, and has at most ${MAX_FIELD_NAME_LENGTH} characters`,
    );
  }
  return { field, op: suffix };
}

/** Quotes user text for an error detail, cut short so a huge parameter cannot flood the answer. */
export function quoteForMessage(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}...` : s);
}

// --- internal ---

function _isModifier(s: string): s is Modifier {
  return (MODIFIERS as readonly string[]).includes(s);
}
