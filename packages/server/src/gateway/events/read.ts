/**
 * @module gateway/events/read
 * Gathers what the events gateway's answers are built from: for each booking, its ticket
 * types (the live `bookable` records whose `booking_ref` is the booking, and those its own
 * `bookable_refs` lists, each once) and its live tickets, found through the storage's
 * reference index (one look-up per booking).
 */
import { parseRecordUri, type RecordEngine, type RecordKey, type StoredRecord } from "@records-service/core";
import { canonicalUri, holding, referencing, refOf, uriOf } from "../read-all.js";
import { compareTicketTypes, type BookingData } from "./packet.js";

/**
 * The ticket types and tickets of each booking, keyed by the booking's URI, in `bookings` order.
 *
 * @example
 * const [data] = await readBookingData(engine, "demo", [booking]);
 */
export async function readBookingData(engine: RecordEngine, flock: string, bookings: readonly StoredRecord[]): Promise<BookingData[]> {
  const types = new Map<string, Map<string, StoredRecord>>();
  const tickets = new Map<string, StoredRecord[]>();
  for (const b of bookings) {
    types.set(uriOf(b), new Map());
    tickets.set(uriOf(b), []);
  }
  for (const b of bookings) {
    const uri = uriOf(b);
    const refs = await referencing(engine, flock, uri);
    for (const t of holding(refs, "bookable", "booking_ref", uri)) types.get(uri)!.set(uriOf(t), t);
    tickets.get(uri)!.push(...holding(refs, "ticket", "booking_ref", uri));
  }
  await _addListedTypes(engine, flock, bookings, types);
  return bookings.map((booking) => ({
    booking,
    types: [...types.get(uriOf(booking))!.values()].sort(compareTicketTypes),
    tickets: tickets.get(uriOf(booking))!,
  }));
}

/** One booking's data. */
export async function readOneBooking(engine: RecordEngine, booking: StoredRecord): Promise<BookingData> {
  return (await readBookingData(engine, booking.flock, [booking]))[0]!;
}

/**
 * The live records of the flock with these URIs, by canonical URI (others are left out).
 */
export async function recordsByUri(engine: RecordEngine, flock: string, uris: Iterable<string>): Promise<Map<string, StoredRecord>> {
  const keys = new Map<string, RecordKey>();
  for (const raw of uris) {
    const parsed = parseRecordUri(canonicalUri(raw));
    if (parsed && parsed.flock === flock) keys.set(`${parsed.type}/${parsed.id}`, { type: parsed.type, id: parsed.id });
  }
  if (keys.size === 0) return new Map();
  const found = await engine.context.storage.getRecords(flock, [...keys.values()]);
  return new Map(found.filter((r) => r.state === "updated").map((r) => [uriOf(r), r]));
}

// --- internal ---

/** Adds the live `bookable` records each booking lists in `bookable_refs`. */
async function _addListedTypes(engine: RecordEngine, flock: string, bookings: readonly StoredRecord[], types: Map<string, Map<string, StoredRecord>>) {
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
