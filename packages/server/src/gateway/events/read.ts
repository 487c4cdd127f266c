/**
 * @module gateway/events/read
 * Gathers what the events gateway's answers are built from: for each booking, its ticket
 * types (the live `bookable` records whose `booking_ref` is the booking, and those its own
 * `bookable_refs` lists, each once) and its live tickets. A page of bookings costs one
 * indexed list query per record type (`booking_ref` equal to one of the page's URIs, in the
 * database's value index), not one look-up per booking; the events list reads its stock
 * from the database's kept count (one row per ticket type), not from the tickets.
 */
import { parseRecordUri, type Filter, type RecordKey, type ScanQuery, type StoredRecord } from "@records-service/core";
import { canonicalUri, refOf, uriOf } from "../read-all.js";
import { compareTicketTypes, summaryFromStock, type BookingData } from "./packet.js";
import { stockCount, stockTotal } from "./stock.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** Bookings whose records one list query asks for at once (a bounded statement). */
const BOOKINGS_PER_QUERY = 500;

/**
 * Records one list query reads (`listMatching`): each page also counts its matches, so a
 * page far above a page of the list (`MAX_PAGE_SIZE`) keeps the usual answer to one
 * statement and one count.
 */
const LIST_STEP = 10_000;

/** Most ticket types one events list page reads (far above any real page of events). */
const MAX_COUNTED_TYPES = 1_000_000;

/** The ticket type fields a summary reads (its booking, its price, its stock), in `readBookingSummaries`' order. */
const TYPE_FIELDS = ["booking_ref", "amount", "total"] as const;

/**
 * The ticket types and tickets of each booking, keyed by the booking's URI, in `bookings` order.
 *
 * @example
 * const [data] = await readBookingData(engine, "demo", [booking]);
 */
export async function readBookingData(engine: RouteEngine, flock: string, bookings: readonly StoredRecord[]): Promise<BookingData[]> {
  const types = new Map<string, Map<string, StoredRecord>>();
  const tickets = new Map<string, StoredRecord[]>();
  for (const b of bookings) {
    types.set(uriOf(b), new Map());
    tickets.set(uriOf(b), []);
  }
  for (let i = 0; i < bookings.length; i += BOOKINGS_PER_QUERY) {
    const uris = bookings.slice(i, i + BOOKINGS_PER_QUERY).map(uriOf);
    for (const t of await _referencingBookings(engine, flock, "bookable", uris)) types.get(refOf(t.data.booking_ref)!)!.set(uriOf(t), t);
    for (const t of await _referencingBookings(engine, flock, "ticket", uris)) tickets.get(refOf(t.data.booking_ref)!)!.push(t);
  }
  await _addListedTypes(engine, flock, bookings, types);
  return bookings.map((booking) => ({
    booking,
    types: [...types.get(uriOf(booking))!.values()].sort(compareTicketTypes),
    tickets: tickets.get(uriOf(booking))!,
  }));
}

/**
 * The summary packets of `bookings`, in their order: what `summaryPacket` gives for each,
 * from the three fields of each ticket type the summary reads (`engine.read.listFieldValues`)
 * and the stock the database keeps per booking and ticket type (`engine.read.listTicketStock`:
 * one row per type, where counting would read every ticket of the page), rather than from
 * whole records.
 *
 * @example
 * const entries = await readBookingSummaries(engine, "demo", page);
 */
export async function readBookingSummaries(engine: RouteEngine, flock: string, bookings: readonly StoredRecord[]): Promise<Record<string, unknown>[]> {
  const types = new Map<string, Map<string, _TypePart>>(bookings.map((b) => [uriOf(b), new Map()]));
  // Per booking, per ticket type URI: what its counted tickets take.
  const taken = new Map<string, Map<string, { allocated: number; reserved: number }>>(bookings.map((b) => [uriOf(b), new Map()]));
  for (let i = 0; i < bookings.length; i += BOOKINGS_PER_QUERY) {
    const uris = bookings.slice(i, i + BOOKINGS_PER_QUERY).map(uriOf);
    for (const { id, values } of await engine.read.listFieldValues(flock, "bookable", _bookingRefQuery(uris), TYPE_FIELDS, MAX_COUNTED_TYPES)) {
      const [bookingRef, amount, total] = values;
      const part: _TypePart = { flock, type: "bookable", id, data: { amount, total } };
      // A list holding the URI matches the query too; `refOf` reads no list (see `_referencingBookings`).
      types.get(refOf(bookingRef) ?? "")?.set(uriOf(part), part);
    }
    for (const row of await engine.read.listTicketStock(flock, uris)) taken.get(row.booking)?.set(row.bookable, row);
  }
  await _addListedTypes(engine, flock, bookings, types);
  return bookings.map((booking) => {
    const own = [...types.get(uriOf(booking))!.values()];
    const byType = taken.get(uriOf(booking))!;
    return summaryFromStock(
      booking,
      own,
      own.map((t) => {
        const n = byType.get(uriOf(t));
        return stockCount(stockTotal(t), n?.allocated ?? 0, n?.reserved ?? 0);
      }),
    );
  });
}

/** One booking's data. */
export async function readOneBooking(engine: RouteEngine, booking: StoredRecord): Promise<BookingData> {
  return (await readBookingData(engine, booking.flock, [booking]))[0]!;
}

/**
 * The live records of the flock with these URIs, by canonical URI (others are left out).
 */
export async function recordsByUri(engine: RouteEngine, flock: string, uris: Iterable<string>): Promise<Map<string, StoredRecord>> {
  const keys = new Map<string, RecordKey>();
  for (const raw of uris) {
    const parsed = parseRecordUri(canonicalUri(raw));
    if (parsed && parsed.flock === flock) keys.set(`${parsed.type}/${parsed.id}`, { type: parsed.type, id: parsed.id });
  }
  if (keys.size === 0) return new Map();
  const found = await engine.read.getRecords(flock, [...keys.values()]);
  return new Map(found.filter((r) => r.state === "updated").map((r) => [uriOf(r), r]));
}

/**
 * Every record of `type` in `flock` matching `query` (its filters, mode and states), in
 * insertion order, read through the record reader's list query `LIST_STEP` records at a time: the filters pick the matches from the value index at once, where a walk
 * (`scanRecords`) would test every record of the type in turn.
 *
 * @example
 * await listMatching(engine, "demo", "booking", { filters, mode: "AND", states: ["updated"] });
 */
export async function listMatching(engine: RouteEngine, flock: string, type: string, query: ScanQuery): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (let page = 1; ; page++) {
    const step = await engine.read.listRecords(flock, type, { ...query, page, pageSize: LIST_STEP });
    out.push(...step.records);
    if (step.records.length < LIST_STEP || out.length >= step.total) return out;
  }
}

// --- internal ---

/**
 * The live records of `type` whose `booking_ref` names one of `uris` (canonical booking
 * URIs), in insertion order: the field's value is the stored (canonical) URI, as the
 * reference index holds it; a list holding the URI, which the value index also matches, is
 * left out, as `refOf` does not read it as one reference.
 */
async function _referencingBookings(engine: RouteEngine, flock: string, type: string, uris: readonly string[]): Promise<StoredRecord[]> {
  const wanted = new Set(uris);
  const found = await listMatching(engine, flock, type, _bookingRefQuery(uris));
  return found.filter((r) => wanted.has(refOf(r.data.booking_ref) ?? ""));
}

/** Live records whose `booking_ref` holds one of `uris` (a superset: see `_referencingBookings`). */
function _bookingRefQuery(uris: readonly string[]): ScanQuery {
  const filter: Filter = { field: "booking_ref", meta: false, op: "or", values: uris.map((text) => ({ text })) };
  return { filters: [filter], mode: "AND", states: ["updated"] };
}

/** A ticket type as far as a summary goes: its key and the fields it reads. */
type _TypePart = Pick<StoredRecord, "flock" | "type" | "id" | "data">;

/** Adds the live `bookable` records each booking lists in `bookable_refs`. */
async function _addListedTypes(engine: RouteEngine, flock: string, bookings: readonly StoredRecord[], types: Map<string, Map<string, _TypePart>>) {
  const listed = (b: StoredRecord) => (Array.isArray(b.data.bookable_refs) ? b.data.bookable_refs : []).map(refOf).filter((u): u is string => u !== undefined);
  const wanted = new Set(bookings.flatMap(listed));
  if (wanted.size === 0) return;
  const found = await recordsByUri(engine, flock, wanted);
  for (const b of bookings) {
    for (const uri of listed(b)) {
      const r = found.get(uri);
      if (r && r.type === "bookable") types.get(uriOf(b))!.set(uri, r);
    }
  }
}
