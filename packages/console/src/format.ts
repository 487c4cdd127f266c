/**
 * @module format
 * Values as people read them: field names in words, timestamps without microseconds in the
 * reader's time, dates as dates, lists as their entries. Never throws (see text.ts).
 */
import { textOf } from "./text.js";

/**
 * A field name in words.
 *
 * @example
 * labelOf("date_of_birth") // "Date of birth"
 */
export function labelOf(field: string): string {
  const words = field.replace(/_+/g, " ").trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : field;
}

/**
 * A stored value as short text: a timestamp (`2026-11-25T14:12:10.462000`, UTC) in the
 * reader's time to the minute, a date (`2026-11-25`) as a date, a list as its entries
 * joined by commas (empty entries left out), anything else as textOf shows it.
 *
 * @example
 * displayOf("2026-11-25") // "25 Nov 2026" (in an English locale)
 * displayOf(["vip", null, "donor"]) // "vip, donor"
 */
export function displayOf(value: unknown): string {
  if (typeof value === "string") return dateText(value) ?? value;
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined && v !== "").map(displayOf).join(", ");
  return textOf(value);
}

/** The text of a timestamp or date, or undefined when `text` is neither. */
export function dateText(text: string): string | undefined {
  const m = _STAMP.exec(text);
  if (!m) return undefined;
  const [, day, time] = m;
  const when = new Date(time ? `${day}T${time.slice(0, 12)}Z` : `${day}T00:00:00Z`);
  // "2026-02-30" would roll over to March: not a date.
  if (Number.isNaN(when.getTime()) || when.toISOString().slice(0, 10) !== day) return undefined;
  return time ? _STAMP_FORMAT.format(when) : _DATE_FORMAT.format(when);
}

// --- internal ---

const _STAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)Z?)?$/;
const _STAMP_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
// A date has no time of day: shown as the day it names, whatever the reader's zone.
const _DATE_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
