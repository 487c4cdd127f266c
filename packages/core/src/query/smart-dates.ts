/**
 * @module query/smart-dates
 * The spec's twelve "smart dates": words a filter may use in place of a date. Each resolves,
 * purely from the given `now`, to an instant; all arithmetic is in UTC (see docs/decisions.md).
 */

const DAY_MS = 86_400_000;

/** Each smart date and how it moves `now`. Keys are the spec's strings, lower-case. */
const RESOLVERS: Readonly<Record<string, (now: Date) => Date>> = {
  today: (now) => new Date(now.getTime()),
  tomorrow: (now) => new Date(now.getTime() + DAY_MS),
  yesterday: (now) => new Date(now.getTime() - DAY_MS),
  // The spec's table says "today minus one month" for `last week`; kept as written.
  "last week": (now) => _addMonths(now, -1),
  "last month": (now) => _addMonths(now, -1),
  "last year": (now) => _addMonths(now, -12),
  year_ago: (now) => _addMonths(now, -12),
  "next week": (now) => new Date(now.getTime() + 7 * DAY_MS),
  "next month": (now) => _addMonths(now, 1),
  "next year": (now) => _addMonths(now, 12),
  start_of_month: (now) => _utc(now.getUTCFullYear(), now.getUTCMonth(), 1),
  start_of_year: (now) => _utc(now.getUTCFullYear(), 0, 1),
};

/** The spec's twelve smart date strings, in the spec's order. */
export const SMART_DATES: readonly string[] = Object.freeze(Object.keys(RESOLVERS));

/**
 * The instant a smart date stands for, or undefined when `text` is not one. Matching
 * ignores surrounding spaces and case; month and year steps clamp to the month's last day.
 *
 * @example
 * resolveSmartDate("Last Month", new Date("2026-03-31T08:00:00Z")) // 2026-02-28T08:00:00.000Z
 * resolveSmartDate("2026-01-01", now) // undefined
 */
export function resolveSmartDate(text: string, now: Date): Date | undefined {
  const key = text.trim().toLowerCase();
  if (!Object.hasOwn(RESOLVERS, key)) return undefined;
  return RESOLVERS[key]!(now);
}

// --- internal ---

/** Calendar months in UTC, keeping the time of day; the day clamps (Mar 31 - 1 month = Feb 28/29). */
function _addMonths(d: Date, months: number): Date {
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = _utc(year, month + 1, 0).getUTCDate();
  const out = _utc(year, month, Math.min(d.getUTCDate(), lastDay));
  out.setUTCHours(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  return out;
}

/** Midnight UTC of a calendar day (day 0 = the previous month's last day). Unlike `Date.UTC`, years 0-99 stay as given. */
function _utc(year: number, month: number, day: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  return d;
}
