/**
 * @module workers/due-prefixes
 * The scheduler finds candidate records with `startswith` filters instead of a
 * `field__gt=A&field__lte=B` pair: each of those two filters is answered by its own index
 * range, and each range is half the table (every date after A; every date up to B), while a
 * prefix is one narrow range. `windowPrefixes` covers the text interval (A, B] with a few
 * prefixes such that every date or timestamp core can read (`parseTimestamp`) that lies in
 * the interval starts with one of them. Candidates outside the interval are dropped again
 * by core's `dueEvents`, which checks the exact bounds.
 */
import { formatDate, parseTimestamp } from "@records-service/core";

const DAY_MS = 86_400_000;
/**
 * After the `YYYY-MM-DD` part, the greatest text of a day's timestamps that core reads:
 * `Z` sorts after `:`, so `T23:59Z` comes after `T23:59:59.999999`.
 */
const LAST_TIME_TEXT = "T23:59Z";

/**
 * Prefixes covering the stored texts in `(afterText, upToText]` that are readable dates or
 * timestamps. Both bounds are `formatTimestamp` texts. Within one day this is their common
 * prefix (every text between two strings shares their common prefix); across days it is
 * the rest of the first day, every whole day between, and the last day.
 *
 * @example
 * windowPrefixes("2026-06-14T10:00:00.000000", "2026-06-14T10:01:00.000000") // ["2026-06-14T10:0"]
 * windowPrefixes("2026-06-13T23:59:00.000000", "2026-06-15T00:00:00.000000")
 * // ["2026-06-13T23:59", "2026-06-13Z", "2026-06-14", "2026-06-15"]
 */
export function windowPrefixes(afterText: string, upToText: string): string[] {
  if (!(afterText < upToText)) return [];
  const first = afterText.slice(0, 10);
  const last = upToText.slice(0, 10);
  if (first === last) return [commonPrefix(afterText, upToText)];
  // The first day: only texts after `afterText`, i.e. its `T` timestamps up to the greatest
  // one, and `YYYY-MM-DDZ`, which sorts after every `YYYY-MM-DDT…`. The date alone and the
  // `YYYY-MM-DD HH:MM` form sort before `afterText`.
  const out = [commonPrefix(afterText, first + LAST_TIME_TEXT), `${first}Z`];
  const start = parseTimestamp(first)!.getTime();
  const end = parseTimestamp(last)!.getTime();
  for (let t = start + DAY_MS; t < end; t += DAY_MS) out.push(formatDate(new Date(t)));
  out.push(last);
  return out;
}

/** The longest common prefix of two strings. */
export function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return a.slice(0, i);
}
