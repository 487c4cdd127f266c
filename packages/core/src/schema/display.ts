/**
 * @module schema/display
 * The display value of a record: the short name shown for it in lists, references and
 * the display endpoint. Computed on every write and stored in `displayValue`.
 */
import { MAX_DISPLAY_VALUE_LENGTH } from "../query/limits.js";
import { formattedName } from "./person.js";
import { isRecordUri } from "./references.js";
import { MEMBERSHIP_TYPES } from "./resource-types.js";

/** The data fields tried in order for types other than person. */
const DISPLAY_FIELDS: readonly string[] = [
  "display_value",
  "name",
  "formatted_name",
  "formatted_title",
  "title",
  "subject",
  "membership_number",
];

/**
 * The display value of a record of `type` holding `data`; `an empty <type>` (underscores
 * as spaces) when nothing names it.
 *
 * @example
 * displayValueOf("payment_plan", {}) // "an empty payment plan"
 */
export function displayValueOf(type: string, data: Record<string, unknown>, planName?: string): string {
  if (type === "person") return cutDisplayValue(formattedName(data) ?? _placeholder(type));
  if (MEMBERSHIP_TYPES.includes(type)) {
    const named = membershipDisplayValue(data, planName);
    if (named) return cutDisplayValue(named);
  }
  for (const field of DISPLAY_FIELDS) {
    const text = _text(Object.hasOwn(data, field) ? data[field] : undefined);
    if (text) return cutDisplayValue(text);
  }
  return _placeholder(type);
}

/**
 * `text` cut to `MAX_DISPLAY_VALUE_LENGTH`, ending in "…" when cut (never inside a
 * surrogate pair). Also applied to stored display values written before the bound.
 *
 * @example
 * cutDisplayValue("x".repeat(2000)).length // 1024
 */
export function cutDisplayValue(text: string): string {
  if (text.length <= MAX_DISPLAY_VALUE_LENGTH) return text;
  let end = MAX_DISPLAY_VALUE_LENGTH - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * A membership's display value: its plan and its number (`Gold 0042`), unless the record
 * names itself (`display_value`, `name`). The plan is `planName` (the display value of the
 * `membership_type` record it references, which the commit step looks up) or the
 * `membership_type` text itself when that is not a reference. Undefined when neither the
 * plan nor the number is known.
 *
 * @example
 * membershipDisplayValue({ membership_number: "0042" }, "Gold") // "Gold 0042"
 */
export function membershipDisplayValue(data: Record<string, unknown>, planName?: string): string | undefined {
  if (_text(data["display_value"]) || _text(data["name"])) return undefined;
  const rawPlan = data["membership_type"];
  const plan = planName?.trim() || (isRecordUri(rawPlan) ? "" : _text(rawPlan));
  const text = [plan, _text(data["membership_number"])].filter(Boolean).join(" ");
  return text || undefined;
}

// --- internal ---

function _placeholder(type: string): string {
  return `an empty ${type.replace(/_/g, " ")}`;
}

/** Non-empty trimmed text of a string or finite number (membership numbers may be numbers). */
function _text(v: unknown): string {
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return "";
}
