/**
 * @module gateway/events/window
 * Which bookings the event lists hold and in what order (spec v2-gateway 1.3 and 6): the
 * default window (14 days back, 90 ahead, by overlap) and the states `all`, `future`,
 * `past`, `running`, `current`, `draft`. Each is a few indexed queries that find a superset
 * (a day wider where dates are compared) and an exact test in code on the stored dates.
 * The queries are list queries (the value index picks the matches at once); only `all`,
 * which has no filter, walks the collection. A list page (`selectBookingPage`) orders and
 * counts the selection by the five fields that decide it, and reads only the page's
 * bookings whole.
 */
import { badRequest, parseListQuery, type ScanQuery, type StoredRecord } from "@records-service/core";
import type { GatewayPaging } from "../params.js";
import { readAll } from "../read-all.js";
import { dateOf, eventDates } from "./packet.js";
import { listMatching } from "./read.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** Days before today the default list reaches back. */
const WINDOW_DAYS_BACK = 14;
/** Days after today the default list reaches ahead. */
const WINDOW_DAYS_AHEAD = 90;

/** The states of `bookings/{state}`. */
const BOOKING_STATES = ["all", "future", "past", "running", "current", "draft"] as const;
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
export async function selectBookings(engine: RouteEngine, flock: string, selection: BookingSelection, today: string): Promise<StoredRecord[]> {
  const { queries, keep } = _plan(selection, today);
  const { clock } = engine.context;
  const found = new Map<string, StoredRecord>();
  for (const q of queries) {
    const { filters, mode, states } = _scanQuery(q, clock.now());
    const matches = filters.length === 0 ? await readAll(engine, flock, "booking", []) : await listMatching(engine, flock, "booking", { filters, mode, states });
    for (const r of matches) found.set(r.id, r);
  }
  // Each record's sort key once, not once per comparison.
  const kept = [...found.values()].filter(keep).map((r) => ({ r, key: _sortKey(r) }));
  kept.sort((a, b) => _compareKeys(a.key, b.key));
  const sorted = kept.map((k) => k.r);
  return selection === "past" ? sorted.reverse() : sorted;
}

/**
 * One page of the selection as of `today`, in list order, and how many bookings the whole
 * selection holds, read whole only for the page.
 *
 * @example
 * const { total, bookings } = await selectBookingPage(engine, "demo", "window", "2026-01-15", { page: 1, pageSize: 250 });
 */
export async function selectBookingPage(
  engine: RouteEngine,
  flock: string,
  selection: BookingSelection,
  today: string,
  paging: GatewayPaging,
): Promise<{ total: number; bookings: StoredRecord[] }> {
  const { clock } = engine.context;
  const { queries, keep } = _plan(selection, today);
  const found = new Map<string, _Keyed>();
  for (const q of queries) {
    for (const { id, values } of await engine.read.listFieldValues(flock, "booking", _scanQuery(q, clock.now()), _KEY_FIELDS, MAX_SELECTED)) {
      const data: Record<string, unknown> = {};
      _KEY_FIELDS.forEach((f, i) => {
        if (values[i] !== undefined) data[f] = values[i];
      });
      found.set(id, { id, data });
    }
  }
  const kept = [...found.values()].filter(keep).map((r) => ({ id: r.id, key: _sortKey(r) }));
  kept.sort((a, b) => _compareKeys(a.key, b.key));
  if (selection === "past") kept.reverse();
  const start = (paging.page - 1) * paging.pageSize;
  const ids = kept.slice(start, start + paging.pageSize).map((k) => k.id);
  const read = new Map((await engine.read.getRecords(flock, ids.map((id) => ({ type: "booking", id })))).map((r) => [r.id, r]));
  // A booking deleted since it was counted is left out of the page.
  const bookings = ids.map((id) => read.get(id)).filter((r): r is StoredRecord => r !== undefined && r.state === "updated");
  return { total: kept.length, bookings };
}

/**
 * The list order: `start_date` (undated last), `start_time` (none first), `title`, id.
 */
export function compareBookings(a: StoredRecord, b: StoredRecord): number {
  return _compareKeys(_sortKey(a), _sortKey(b));
}

/** `date` moved by `days` (YYYY-MM-DD, UTC calendar). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// --- internal ---

/** Most bookings one selection orders (far above any flock's events). */
const MAX_SELECTED = 1_000_000;

/** The fields that decide whether a booking is selected and where it sorts. */
const _KEY_FIELDS = ["start_date", "end_date", "start_time", "title", "status"] as const;

/** A booking as far as selecting and ordering go. */
type _Keyed = Pick<StoredRecord, "id" | "data">;

interface _SortKey {
  date: string | null;
  time: string | null;
  title: string;
  id: string;
}

function _sortKey(r: _Keyed): _SortKey {
  const d = eventDates(r);
  return { date: d.start_date, time: d.start_time, title: typeof r.data.title === "string" ? r.data.title : "", id: r.id };
}

function _compareKeys(a: _SortKey, b: _SortKey): number {
  if (a.date !== b.date) {
    if (a.date === null) return 1;
    if (b.date === null) return -1;
    return a.date < b.date ? -1 : 1;
  }
  if (a.time !== b.time) {
    if (a.time === null) return -1;
    if (b.time === null) return 1;
    return a.time < b.time ? -1 : 1;
  }
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A query of a plan: list parameters, or a ready query (one the parameters cannot say). */
type _Query = [string, string][] | ScanQuery;

interface _Plan {
  queries: _Query[];
  keep: (r: _Keyed) => boolean;
}

function _scanQuery(q: _Query, now: Date): ScanQuery {
  if (!Array.isArray(q)) return q;
  const { filters, mode, states } = parseListQuery(q, { surface: "v2", now });
  return { filters, mode, states };
}

/**
 * Live bookings whose `start_date` begins with one of the days `from`..`to`: the span as
 * the fewest date prefixes that cover exactly its days (whole months as `YYYY-MM`, whole
 * tens of days as `YYYY-MM-D`, the rest as days), which the value index finds as a few
 * prefix ranges, each reading only its own entries, where `start_date__gte` with
 * `start_date__lte` reads every entry on either side of each bound and intersects them.
 */
function _startDays(from: string, to: string): ScanQuery {
  return { filters: [{ field: "start_date", meta: false, op: "startswith", values: datePrefixes(from, to).map((text) => ({ text })) }], mode: "AND", states: ["updated"] };
}

/**
 * The fewest prefixes of `YYYY-MM-DD` dates that the dates `from`..`to` (inclusive), and
 * no others, begin with.
 *
 * @example
 * datePrefixes("2026-01-28", "2026-03-12") // ["2026-01-28", "2026-01-29", "2026-01-3", "2026-02", "2026-03-0", "2026-03-10", "2026-03-11", "2026-03-12"]
 */
export function datePrefixes(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; ) {
    const month = d.slice(0, 7);
    const monthEnd = _lastDay(month);
    // A whole month from its first day.
    if (d.endsWith("-01") && monthEnd <= to) {
      out.push(month);
      d = addDays(monthEnd, 1);
      continue;
    }
    // A whole ten (`-0`: 01-09, `-1`: 10-19, `-2`: 20-29, `-3`: 30-31) from its first day.
    const tens = d.slice(0, 9);
    const first = tens.endsWith("-0") ? `${tens}1` : `${tens}0`;
    const last = tens.endsWith("-0") ? `${tens}9` : tens.endsWith("-3") ? monthEnd : `${tens}9` < monthEnd ? `${tens}9` : monthEnd;
    if (d === first && last <= to) {
      out.push(tens);
      d = addDays(last, 1);
      continue;
    }
    out.push(d);
    d = addDays(d, 1);
  }
  return out;
}

function _lastDay(month: string): string {
  return addDays(`${_nextMonth(month)}-01`, -1);
}

function _nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${String(y + 1).padStart(4, "0")}-01` : `${String(y).padStart(4, "0")}-${String(m + 1).padStart(2, "0")}`;
}

function _plan(selection: BookingSelection, today: string): _Plan {
  const span = (r: _Keyed) => {
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
        queries: [_startDays(from, to), runningInto(from)],
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
