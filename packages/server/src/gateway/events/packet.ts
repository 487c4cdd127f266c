/**
 * @module gateway/events/packet
 * The events gateway's answers built from a booking, its ticket types and its tickets
 * (spec v2-gateway 1.2 and 1.4): the event packet, the summary packet and the
 * `available_tickets` entries. Pure: gateway/events/read gathers the records.
 */
import type { StoredRecord } from "@records-service/core";
import { refOf, uriOf } from "../read-all.js";
import { countStock, stockTotal, ticketCounts, type StockCount } from "./stock.js";

/** What one booking's answers are built from. */
export interface BookingData {
  booking: StoredRecord;
  /** Its ticket types, in their order (sort_order, name, URI). */
  types: StoredRecord[];
  /** Its live tickets (every status), in creation order. */
  tickets: StoredRecord[];
}

/** The currency of a ticket type or ticket without one. */
const DEFAULT_CURRENCY = "gbp";

/** The fields of the summary packet (list entries and `…/summary`), in the spec's order. */
export const SUMMARY_FIELDS = [
  "uid", "uri", "resource_type", "display_value", "title", "formatted_title", "start_date", "end_date", "start_time",
  "end_time", "start_datetime", "end_datetime", "date_range", "multi_day", "status", "cancelled", "booking_type",
  "event_type", "category", "location", "tags", "hide_from_self_service", "member_only_event", "ticketed_event",
  "has_available_tickets", "is_sold_out", "minimum_ticket_price", "maximum_ticket_price", "created", "last_updated",
] as const;

/** The vendor's `can_*` flags: every one is true for a core key. */
const _CAN_FLAGS = [
  "can_cancel_event", "can_change_dates", "can_edit_booking_details", "can_delete_event", "can_manage_tickets",
  "can_manage_attendance", "can_view_orders", "can_export_attendance",
] as const;

/**
 * The order of ticket types: `sort_order` (default 0), then `name`, then URI.
 *
 * @example
 * types.sort(compareTicketTypes)
 */
export function compareTicketTypes(a: StoredRecord, b: StoredRecord): number {
  const so = (r: StoredRecord) => (typeof r.data.sort_order === "number" && Number.isFinite(r.data.sort_order) ? r.data.sort_order : 0);
  const name = (r: StoredRecord) => (typeof r.data.name === "string" ? r.data.name : "");
  return so(a) - so(b) || _cmp(name(a), name(b)) || _cmp(uriOf(a), uriOf(b));
}

/** The event's dates and times as the packets give them. */
export interface EventDates {
  start_date: string | null;
  end_date: string | null;
  start_time: string | null;
  end_time: string | null;
  start_datetime: string | null;
  end_datetime: string | null;
  multi_day: boolean;
  date_range: string | null;
}

/** A booking's dates: `end_date` defaults to `start_date`; datetimes take 00:00 when there is no time. */
export function eventDates(booking: Pick<StoredRecord, "data">): EventDates {
  const start = dateOf(booking.data.start_date);
  const end = dateOf(booking.data.end_date) ?? start;
  const startTime = timeOf(booking.data.start_time);
  const endTime = timeOf(booking.data.end_time);
  const multi = start !== null && end !== null && end > start;
  return {
    start_date: start,
    end_date: end,
    start_time: startTime,
    end_time: endTime,
    start_datetime: start ? _datetime(start, startTime) : null,
    end_datetime: end ? _datetime(end, endTime) : null,
    multi_day: multi,
    date_range: start === null ? null : multi ? `${start} to ${end}` : start,
  };
}

/** `YYYY-MM-DD` from a stored date or timestamp, else null. */
export function dateOf(v: unknown): string | null {
  return typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;
}

/** True when the booking is cancelled: stored `cancelled` true, or `status` `cancelled`. */
function isCancelled(booking: Pick<StoredRecord, "data">): boolean {
  const status = booking.data.status;
  return booking.data.cancelled === true || (typeof status === "string" && status.trim().toLowerCase() === "cancelled");
}

/** One `available_tickets` entry: a ticket type with its counts. */
export function ticketTypeEntry(type: StoredRecord, tickets: readonly StoredRecord[]): Record<string, unknown> {
  const d = type.data;
  const stock = countStock(stockTotal(type), tickets);
  const perTicket = typeof d.number_of_attendees_per_ticket === "number" ? d.number_of_attendees_per_ticket : Number(d.number_of_attendees_per_ticket);
  return {
    uri: uriOf(type),
    name: _str(d.name),
    description: _str(d.description),
    amount: money(numberOf(d.amount) ?? 0).toFixed(2),
    currency: currencyOf(d.currency),
    ...stock,
    member_only: d.member_only === true,
    single_use: d.single_use === true,
    access_code: _str(d.access_code),
    available_from_date: _str(d.available_from_date),
    tax: _text(d.tax),
    pricing: _text(d.pricing),
    number_of_attendees_per_ticket: String(d.number_of_attendees_per_ticket !== undefined && d.number_of_attendees_per_ticket !== null && Number.isFinite(perTicket) ? perTicket : 1),
    sort_order: typeof d.sort_order === "number" && Number.isFinite(d.sort_order) ? d.sort_order : 0,
    tags: Array.isArray(d.tags) ? d.tags.filter((t) => typeof t === "string") : [],
  };
}

/** The tickets of each ticket type (by the type's URI); tickets of no listed type are left out. */
export function ticketsByType(data: BookingData): Map<string, StoredRecord[]> {
  const out = new Map<string, StoredRecord[]>(data.types.map((t) => [uriOf(t), []]));
  for (const ticket of data.tickets) {
    const type = refOf(ticket.data.bookable_ref);
    if (type) out.get(type)?.push(ticket);
  }
  return out;
}

/** The event packet (vendor `EventSingle`): every stored field plus the computed ones. */
export function eventPacket(data: BookingData): Record<string, unknown> {
  const { booking, types } = data;
  const byType = ticketsByType(data);
  const entries = types.map((t) => ticketTypeEntry(t, byType.get(uriOf(t)) ?? []));
  const stocks = entries as unknown as (StockCount & { uri: string; amount: string })[];
  const limited = stocks.filter((s) => s.total !== null);
  const prices = types.map((t) => numberOf(t.data.amount) ?? 0);
  const income: Record<string, number> = {};
  for (const t of types) {
    const sum = (byType.get(uriOf(t)) ?? []).filter(ticketCounts).reduce((n, x) => n + (numberOf(x.data.amount) ?? 0), 0);
    income[uriOf(t)] = money(sum);
  }
  const ticketed = typeof booking.data.ticketed_event === "boolean" ? booking.data.ticketed_event : types.length > 0;
  const cancelled = isCancelled(booking);
  return {
    ...booking.data,
    ..._bookingHeader(booking),
    has_cancelled: cancelled,
    bookable_refs: types.map(uriOf),
    ticket_types: Object.fromEntries(entries.map((e) => [e.uri as string, e])),
    ticketed_event: ticketed,
    has_ticketed_event: ticketed,
    total_stock: limited.length > 0 ? limited.reduce((n, s) => n + s.total!, 0) : null,
    total_stock_allocated: stocks.reduce((n, s) => n + s.allocated, 0),
    total_stock_available: limited.length > 0 ? limited.reduce((n, s) => n + s.available!, 0) : null,
    has_available_tickets: stocks.some((s) => s.available === null || s.available > 0),
    is_sold_out: stocks.length > 0 && stocks.every((s) => s.available === 0),
    minimum_ticket_price: prices.length > 0 ? Math.min(...prices) : null,
    maximum_ticket_price: prices.length > 0 ? Math.max(...prices) : null,
    ticket_type_income: income,
    user_interface: Object.fromEntries(_CAN_FLAGS.map((f) => [f, true])),
  };
}

/**
 * The summary packet: the list fields of the event packet (absent stored ones are null),
 * exactly as `eventPacket` gives them, built without the rest of it (a list page builds
 * hundreds: the ticket type entries, incomes and flags it leaves out are most of the work).
 */
export function summaryPacket(data: BookingData): Record<string, unknown> {
  const byType = ticketsByType(data);
  return summaryFromStock(data.booking, data.types, data.types.map((t) => countStock(stockTotal(t), byType.get(uriOf(t)) ?? [])));
}

/**
 * The summary packet from the booking, its ticket types (in any order) and each type's
 * stock (`stocks[i]` of `types[i]`): what the events list builds, having counted the stock
 * without reading whole tickets.
 */
export function summaryFromStock(booking: StoredRecord, types: readonly Pick<StoredRecord, "data">[], stocks: readonly StockCount[]): Record<string, unknown> {
  const d = booking.data;
  const stored = (f: string) => (Object.hasOwn(d, f) ? d[f] : undefined) ?? null;
  let min: number | null = null;
  let max: number | null = null;
  for (const t of types) {
    const price = numberOf(t.data.amount) ?? 0;
    if (min === null || price < min) min = price;
    if (max === null || price > max) max = price;
  }
  const dates = eventDates(booking);
  // One object literal in `SUMMARY_FIELDS` order (a list page builds 250): the computed
  // fields as `_bookingHeader` gives them, the others as stored, absent ones null.
  return {
    uid: booking.id,
    uri: uriOf(booking),
    resource_type: "booking",
    display_value: booking.displayValue ?? null,
    title: stored("title"),
    formatted_title: booking.displayValue ?? null,
    start_date: dates.start_date,
    end_date: dates.end_date,
    start_time: dates.start_time,
    end_time: dates.end_time,
    start_datetime: dates.start_datetime,
    end_datetime: dates.end_datetime,
    date_range: dates.date_range,
    multi_day: dates.multi_day,
    status: _str(d.status),
    cancelled: isCancelled(booking),
    booking_type: stored("booking_type"),
    event_type: stored("event_type"),
    category: stored("category"),
    location: stored("location"),
    tags: stored("tags"),
    hide_from_self_service: stored("hide_from_self_service"),
    member_only_event: stored("member_only_event"),
    ticketed_event: typeof d.ticketed_event === "boolean" ? d.ticketed_event : types.length > 0,
    has_available_tickets: stocks.some((s) => s.available === null || s.available > 0),
    is_sold_out: stocks.length > 0 && stocks.every((s) => s.available === 0),
    minimum_ticket_price: min,
    maximum_ticket_price: max,
    created: booking.created ?? null,
    last_updated: booking.lastUpdated ?? null,
  } satisfies Record<(typeof SUMMARY_FIELDS)[number], unknown>;
}

/** The computed fields the event packet and the summary share: identity, title, dates, status. */
function _bookingHeader(booking: StoredRecord): Record<string, unknown> {
  return {
    uid: booking.id,
    uri: uriOf(booking),
    resource_type: "booking",
    display_value: booking.displayValue,
    formatted_title: booking.displayValue,
    created: booking.created,
    last_updated: booking.lastUpdated,
    ...eventDates(booking),
    status: _str(booking.data.status),
    cancelled: isCancelled(booking),
  };
}

/** A number from a stored number or numeric text, else undefined. */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Rounded to 2 decimals, half away from zero. */
export function money(n: number): number {
  // toPrecision first: 2.345 * 100 is 234.49999999999997 in binary, and must round as 234.5.
  return (Math.sign(n) * Math.round(Number((Math.abs(n) * 100).toPrecision(15)))) / 100;
}

/** A stored currency, lower-case; the default when absent. */
export function currencyOf(v: unknown, fallback = DEFAULT_CURRENCY): string {
  return typeof v === "string" && v.trim() !== "" ? v.trim().toLowerCase() : fallback;
}

/** `HH:MM` from a stored time, else null. */
function timeOf(v: unknown): string | null {
  return typeof v === "string" && /^\d{2}:\d{2}/.test(v) ? v.slice(0, 5) : null;
}

// --- internal ---

function _datetime(date: string, time: string | null): string {
  return `${date}T${time ?? "00:00"}:00.000000`;
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** Text of a stored scalar (a number as its text), else null. */
function _text(v: unknown): string | null {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;
}

function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
