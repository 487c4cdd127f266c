/**
 * @module gateway/events/tickets
 * A booking's tickets as the gateway shows them (spec v2-gateway 1.5 and 1.6): the
 * expanded ticket of `tickets/all` and the attendance session of `attendance/all`. Pure:
 * the people and ticket types they name are passed in, already read.
 */
import { primaryEntry, type StoredRecord } from "@records-service/core";
import { refOf, uriOf } from "../read-all.js";
import { eventDates, numberOf, type BookingData } from "./packet.js";
import { ticketCounts, ticketUnits } from "./stock.js";

/** The attendance statuses `PUT …/attendance` accepts. */
export const ATTENDANCE_STATUSES = ["invited", "accepted", "declined", "attended", "no-show"] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

/** A session's status before any attendance is recorded: holding a ticket is an accepted place. */
const DEFAULT_ATTENDANCE = "accepted";

/** Records the tickets name, by canonical URI (people, ticket types). */
export type Named = ReadonlyMap<string, StoredRecord>;

/** The attendee of a ticket: its `person_ref`, else its `buyer_ref` (canonical URI), else null. */
export function attendeeOf(ticket: Pick<StoredRecord, "data">): string | null {
  return refOf(ticket.data.person_ref) ?? refOf(ticket.data.buyer_ref) ?? null;
}

/** The URIs `tickets` name (buyers, attendees, ticket types), for one read. */
export function namedUris(tickets: readonly StoredRecord[]): Set<string> {
  const out = new Set<string>();
  for (const t of tickets) {
    for (const field of ["person_ref", "buyer_ref", "bookable_ref"]) {
      const uri = refOf(t.data[field]);
      if (uri) out.add(uri);
    }
  }
  return out;
}

/** One ticket of `tickets/all` (vendor `TicketExpanded`, plus `person_ref`, `status`, `attendance`). */
export function expandedTicket(ticket: StoredRecord, data: BookingData, named: Named): Record<string, unknown> {
  const d = ticket.data;
  const buyer = refOf(d.buyer_ref) ?? null;
  const type = refOf(d.bookable_ref) ?? null;
  const typeName = type ? _name(named.get(type) ?? data.types.find((t) => uriOf(t) === type)) : null;
  const attendee = attendeeOf(ticket);
  const quantity = ticketUnits(ticket);
  const own = d.display_value ?? d.name ?? d.title;
  const attendeeName = (attendee && named.get(attendee)?.displayValue) ?? _str(d.attendee_name) ?? "";
  return {
    uid: ticket.id,
    uri: uriOf(ticket),
    created: ticket.created,
    last_updated: ticket.lastUpdated,
    record_state: ticket.state,
    booking: uriOf(data.booking),
    booking_display: data.booking.displayValue,
    buyer,
    buyer_display: buyer ? named.get(buyer)?.displayValue ?? null : null,
    ticket_type: type,
    ticket_type_display: typeName,
    amount: numberOf(d.amount) ?? null,
    currency: _str(d.currency),
    tax_rate: numberOf(d.tax_rate) ?? null,
    quantity,
    number_of_attendees: numberOf(d.number_of_attendees) ?? quantity,
    date: eventDates(data.booking).start_datetime,
    purchase_date: _str(d.purchase_date) ?? ticket.created,
    display_value: typeof own === "string" && own !== "" ? own : `${typeName ?? "ticket"}: ${attendeeName}`,
    formatted_title: data.booking.displayValue,
    activity: d.activity ?? null,
    venue: d.venue ?? data.booking.data.location ?? null,
    reference: d.reference ?? null,
    legacy_uid: d.legacy_uid ?? null,
    ticket_id: d.ticket_id ?? ticket.id,
    person_ref: attendee,
    status: _str(d.status),
    attendance: _str(d.attendance),
  };
}

/** The sessions of `attendance/all`: one per counted ticket, ordered by attendee name (then ticket id). */
export function sessions(data: BookingData, named: Named): Record<string, unknown>[] {
  return data.tickets
    .filter(ticketCounts)
    .map((t) => session(t, named))
    .sort((a, b) => _cmp(String(a.attendee_name ?? ""), String(b.attendee_name ?? "")) || _cmp(String(a.uid), String(b.uid)));
}

/** One attendance session: the ticket seen as a place. */
export function session(ticket: StoredRecord, named: Named): Record<string, unknown> {
  const d = ticket.data;
  const attendee = attendeeOf(ticket);
  const buyer = refOf(d.buyer_ref) ?? null;
  const person = attendee ? named.get(attendee) : undefined;
  const type = refOf(d.bookable_ref);
  const name = person?.displayValue ?? _str(d.attendee_name);
  const email = _primaryEmail(person) ?? _str(d.attendee_email);
  const guest = typeof d.guest === "boolean" ? d.guest : attendee !== null && buyer !== null && attendee !== buyer;
  return {
    uid: ticket.id,
    uri: uriOf(ticket),
    ticket_ref: uriOf(ticket),
    ticket: type ? _name(named.get(type)) : null,
    person_ref: attendee,
    attendee_name: name,
    attendee_email: email,
    display_value: name,
    guest,
    guest_ref: guest ? buyer : null,
    status: _str(d.attendance) ?? DEFAULT_ATTENDANCE,
    legacy_uid: d.legacy_uid ?? null,
    record_state: ticket.state,
    created: ticket.created,
    last_updated: ticket.lastUpdated,
  };
}

// --- internal ---

function _primaryEmail(person: StoredRecord | undefined): string | null {
  if (!person) return null;
  const email = person.data.email;
  const entry = Array.isArray(email) ? primaryEntry(email) : typeof email === "string" ? primaryEntry([email]) : undefined;
  return entry?.value ?? null;
}

function _name(r: StoredRecord | undefined): string | null {
  if (!r) return null;
  return typeof r.data.name === "string" ? r.data.name : r.displayValue;
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
