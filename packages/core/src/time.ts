/**
 * @module time
 * The injected clock and the spec's timestamp formats. Timestamps are written in UTC,
 * without a zone suffix, as the spec's "local timestamp" (see docs/decisions.md).
 */

/** Source of the current time. Inject a fixed or stepping clock in tests. */
export interface Clock {
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that returns `start` and moves only when told: for deterministic tests. */
export function createFakeClock(start: Date | string = "2026-01-15T10:00:00.000Z"): Clock & {
  set(t: Date | string): void;
  advance(ms: number): void;
} {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (v) => void (t = new Date(v).getTime()),
    advance: (ms) => void (t += ms),
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** `YYYY-MM-DDTHH:MM:SS.ffffff` (UTC, microseconds, no zone), the record timestamp format. */
export function formatTimestamp(d: Date): string {
  return `${formatSeconds(d)}.${pad(d.getUTCMilliseconds() * 1000, 6)}`;
}

/** `YYYY-MM-DDTHH:MM:SS` (UTC, no fraction), the reservation time format. */
export function formatSeconds(d: Date): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** `YYYY-MM-DD` (UTC). */
export function formatDate(d: Date): string {
  return formatSeconds(d).slice(0, 10);
}

const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?Z?$/;

/**
 * Parses a date (`YYYY-MM-DD`) or a timestamp in the spec's format (fraction optional)
 * as UTC. Returns undefined when the text is not one.
 */
export function parseTimestamp(s: string): Date | undefined {
  const m = TIMESTAMP_RE.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", sec = "0", frac = "0"] = m;
  if (+h > 23 || +mi > 59 || +sec > 59) return undefined; // 10:99 is no time, not 11:39
  const ms = Math.floor(Number(frac.padEnd(6, "0")) / 1000);
  const date = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +sec, ms));
  // Reject rolled-over values such as 2026-02-31.
  if (date.getUTCMonth() !== +mo! - 1 || date.getUTCDate() !== +d!) return undefined;
  return date;
}
