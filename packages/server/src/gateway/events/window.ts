/**
 * @module gateway/events/window
 * Which bookings the event lists hold and in what order (spec v2-gateway 1.3 and 6): the
 * default window (14 days back, 90 ahead, by overlap) and the states `all`, `future`,
 * `past`, `running`, `current`, `draft`. Each is a few indexed queries that find a superset
 * (a day wider where dates are compared) and an exact test in code on the stored dates.
 */
import { badRequest, type RecordEngine, type StoredRecord } from "@records-service/core";
import { readAll } from "../read-all.js";
import { dateOf, eventDates } from "./packet.js";

/** Days before today the default list reaches back. */
export const WINDOW_DAYS_BACK = 14;
/** Days after today the default list reaches ahead. */
export const WINDOW_DAYS_AHEAD = 90;

/** The states of `bookings/{state}`. */
export const BOOKING_STATES = ["all", "future", "past", "running", "current", "draft"] as const;
export type BookingState = (typeof BOOKING_STATES)[number];

/** What selects a list: the default window or a state. */
export type BookingSelection = "window" | BookingState;

/**
 * The state named in a path, or a 400 `invalid state` naming the six.
 *
 * @example
 * parseBookingState("future") // "future"
 */
export function parseBookingState(word: string): BookingState {
  if ((BOOKING_STATES as readonly string[]).includes(word)) return word as BookingState;
  throw badRequest("invalid state", `${JSON.stringify(word.slice(0, 60))} is not a booking state; use one of ${BOOKING_STATES.join(", ")}`);
}

/**
 * The live bookings of the selection as of `today` (`YYYY-MM-DD`), in list order.
 *
 * @example
 * await selectBookings(engine, "demo", "window", "2026-01-15");
 */
export async function selectBookings(engine: RecordEngine, flock: string, selection: BookingSelection, today: string): Promise<StoredRecord[]> {
  const { queries, keep } = _plan(selection, today);
  const found = new Map<string, StoredRecord>();
  for (const params of queries) for (const r of await readAll(engine, flock, "booking", params)) found.set(r.id, r);
  const kept = [...found.values()].filter(keep).sort(compareBookings);
  return selection === "past" ? kept.reverse() : kept;
}

/**
 * The list order: `start_date` (undated last), `start_time` (none first), `title`, id.
 */
export function compareBookings(a: StoredRecord, b: StoredRecord): number {
  const da = eventDates(a);
  const db = eventDates(b);
  if (da.start_date !== db.start_date) {
    if (da.start_date === null) return 1;
    if (db.start_date === null) return -1;
    return da.start_date < db.start_date ? -1 : 1;
  }
  if (da.start_time !== db.start_time) {
    if (da.start_time === null) return -1;
    if (db.start_time === null) return 1;
    return da.start_time < db.start_time ? -1 : 1;
  }
  const ta = typeof a.data.title === "string" ? a.data.title : "";
  const tb = typeof b.data.title === "string" ? b.data.title : "";
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** `date` moved by `days` (YYYY-MM-DD, UTC calendar). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// --- internal ---

interface _Plan {
  queries: [string, string][][];
  keep: (r: StoredRecord) => boolean;
}

function _plan(selection: BookingSelection, today: string): _Plan {
  const span = (r: StoredRecord) => {
    const start = dateOf(r.data.start_date);
    const end = dateOf(r.data.end_date) ?? start;
    return { start, end: end !== null && start !== null && end < start ? start : end };
  };
  // Began before `from` but may still run on it: a multi-day event (its end decides).
  const runningInto = (from: string): [string, string][] => [["start_date__lt", addDays(from, 1)], ["end_date__gte", addDays(from, -1)]];
  switch (selection) {
    case "window": {
      const from = addDays(today, -WINDOW_DAYS_BACK);
      const to = addDays(today, WINDOW_DAYS_AHEAD);
      return {
        queries: [[["start_date__gte", addDays(from, -1)], ["start_date__lte", addDays(to, 1)]], runningInto(from)],
        keep: (r) => {
          const { start, end } = span(r);
          return start !== null && start <= to && end! >= from;
        },
      };
    }
    case "all":
      return { queries: [[]], keep: () => true };
    case "future":
      return { queries: [[["start_date__gte", today]]], keep: (r) => (span(r).start ?? "") > today };
    case "past":
      return { queries: [[["start_date__lte", addDays(today, 1)]]], keep: (r) => span(r).start !== null && span(r).end! < today };
    case "running":
      return {
        queries: [[["start_date__lte", addDays(today, 1)]]],
        keep: (r) => {
          const { start, end } = span(r);
          return start !== null && start <= today && end! >= today;
        },
      };
    case "current":
      return {
        queries: [[["start_date__gte", addDays(today, -1)]], runningInto(today)],
        keep: (r) => span(r).start !== null && span(r).end! >= today,
      };
    case "draft":
      return {
        queries: [[["status__startswithi", "draft"]]],
        keep: (r) => typeof r.data.status === "string" && r.data.status.trim().toLowerCase() === "draft",
      };
  }
}
