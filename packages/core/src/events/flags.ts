/**
 * @module events/flags
 * When a record's flag field (`auto_renew`, `is_renewal`, `completed`, ...) counts as set.
 * One rule for the emission on writes and for the scheduler's conditions, so a value that
 * arms a date-relative event also emits the matching action-time event.
 */

/**
 * True for `true`, `1`, `"1"` and `"true"` in any case; everything else (unset included) is not set.
 *
 * @example
 * isFlagSet("TRUE") // true
 */
export function isFlagSet(v: unknown): boolean {
  if (v === true || v === 1) return true;
  return typeof v === "string" && (v === "1" || v.toLowerCase() === "true");
}
