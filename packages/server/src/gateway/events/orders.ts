/**
 * @module gateway/events/orders
 * Orders of the events gateway (spec v2-gateway section 6): an order is one buyer's
 * tickets for one event (tickets hold `buyer_ref`); it has no record of its own. This
 * module gathers an order's tickets and payments and builds the vendor's `Order`,
 * `OrdersList` and `OrderDeleted` answers. Payments count as for an order's invoice (2.1):
 * live payments, not cancelled or refunded, with `ticket_ref` to one of the order's counted
 * tickets, or with `booking_ref` the event and `person_ref` the buyer; those dated after
 * today are scheduled, not paid.
 */
import type { StoredRecord } from "@records-service/core";
import { holding, referencing, refOf, uriOf } from "../read-all.js";
import { currencyOf, dateOf, money, numberOf, type BookingData } from "./packet.js";
import { stockTotal, ticketCounts, ticketUnits } from "./stock.js";
import { attendeeOf, type Named } from "./tickets.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** The contact types an order path accepts as the buyer. */
export const ORDER_CONTACT_TYPES: readonly string[] = ["person", "organisation"];

/** One buyer's live tickets of the event (every status), in creation order. */
export function orderTickets(data: BookingData, buyerUri: string): StoredRecord[] {
  return data.tickets.filter((t) => refOf(t.data.buyer_ref) === buyerUri);
}

/** The buyers of the event's live tickets, in the order of their first ticket. */
export function buyersOf(data: BookingData): string[] {
  const out = new Set<string>();
  for (const t of data.tickets) {
    const buyer = refOf(t.data.buyer_ref);
    if (buyer) out.add(buyer);
  }
  return [...out];
}

/**
 * The counted payments of the event's orders, by buyer URI: those naming one of `tickets`
 * (counted ones) in `ticket_ref` go to that ticket's buyer, those naming the event in
 * `booking_ref` to their `person_ref`.
 */
export async function orderPayments(engine: RouteEngine, data: BookingData, tickets: readonly StoredRecord[]): Promise<Map<string, StoredRecord[]>> {
  const flock = data.booking.flock;
  const bookingUri = uriOf(data.booking);
  const out = new Map<string, Map<string, StoredRecord>>();
  const add = (buyer: string | undefined, p: StoredRecord) => {
    if (!buyer || !ticketCounts(p)) return;
    if (!out.has(buyer)) out.set(buyer, new Map());
    out.get(buyer)!.set(p.id, p);
  };
  const counted = tickets.filter(ticketCounts);
  const ticketUris = new Set(counted.map(uriOf));
  for (const p of holding(await referencing(engine, flock, bookingUri), "payment", "booking_ref", bookingUri)) {
    const ticket = refOf(p.data.ticket_ref);
    if (ticket === undefined) add(refOf(p.data.person_ref), p);
  }
  for (const t of counted) {
    for (const p of holding(await referencing(engine, flock, uriOf(t)), "payment", "ticket_ref", uriOf(t))) {
      if (ticketUris.has(refOf(p.data.ticket_ref)!)) add(refOf(t.data.buyer_ref), p);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v.values()]]));
}

/**
 * The vendor's `Order` for `buyer` over `tickets` (the buyer's live tickets of the event),
 * with `booking_uri` and `ticket_uris` of ours. Amounts are per currency.
 */
export function orderPacket(data: BookingData, buyer: string, tickets: readonly StoredRecord[], payments: readonly StoredRecord[], named: Named, today: string): Record<string, unknown> {
  const counted = tickets.filter(ticketCounts);
  const attendees = new Set(counted.map(attendeeOf).filter((u): u is string => u !== null));
  const units = new Map<string, number>();
  for (const t of counted) {
    const type = refOf(t.data.bookable_ref) ?? "";
    units.set(type, (units.get(type) ?? 0) + ticketUnits(t));
  }
  const typeOrder = [...data.types.map(uriOf), ...[...units.keys()].filter((k) => !data.types.some((t) => uriOf(t) === k))];
  const typeName = (uri: string) => {
    const r = data.types.find((t) => uriOf(t) === uri) ?? named.get(uri);
    return r ? (typeof r.data.name === "string" ? r.data.name : r.displayValue) : "Ticket";
  };
  const asString = typeOrder.filter((k) => units.has(k)).map((k) => `${units.get(k)} x ${typeName(k)}`).join(", ");
  const dates = (counted.length > 0 ? counted : tickets).map((t) => dateOf(t.data.purchase_date) ?? t.created.slice(0, 10)).sort();
  const fallback = currencyOf(undefined);
  const totals = new Map<string, { total: number; paid: number; fees: number }>();
  const bucket = (c: string) => totals.get(c) ?? totals.set(c, { total: 0, paid: 0, fees: 0 }).get(c)!;
  for (const t of counted) {
    const b = bucket(currencyOf(t.data.currency, fallback));
    b.total += numberOf(t.data.amount) ?? 0;
    b.fees += numberOf(t.data.processing_fee) ?? 0;
  }
  for (const p of payments) {
    const when = dateOf(p.data.payment_date);
    if (when !== null && when > today) continue;
    bucket(currencyOf(p.data.currency, counted.length > 0 ? currencyOf(counted[0]!.data.currency) : fallback)).paid += numberOf(p.data.amount) ?? 0;
  }
  const currencies = [...totals.keys()].sort();
  const buyerRecord = named.get(buyer);
  return {
    buyer,
    buyer_index_name: buyerRecord ? (typeof buyerRecord.data.sortable_name === "string" && buyerRecord.data.sortable_name !== "" ? buyerRecord.data.sortable_name : buyerRecord.displayValue) : null,
    attendee_count: attendees.size,
    tickets: [...units.values()].reduce((n, u) => n + u, 0),
    tickets_as_string: asString,
    order_date: dates[0] ?? null,
    currencies,
    order_total: Object.fromEntries(
      currencies.map((c) => {
        const b = totals.get(c)!;
        const outstanding = money(b.total - b.paid);
        return [c, { total: money(b.total), paid: money(b.paid), outstanding, processing_fees: money(b.fees), fully_paid: outstanding <= 0 }];
      }),
    ),
    booking_uri: uriOf(data.booking),
    ticket_uris: tickets.map(uriOf),
  };
}

/** True when some currency of the order has an outstanding amount above 0. */
export function orderUnpaid(order: Record<string, unknown>): boolean {
  return Object.values(order.order_total as Record<string, { outstanding: number }>).some((t) => t.outstanding > 0);
}

/**
 * Deletes `tickets` (one order's live tickets) through `writer` (the engine acting for the
 * caller), one by one; a ticket that cannot be deleted is named in `errors` and the rest go
 * on. `returned_stock`: the limited ticket types a deleted counted ticket gave stock back to.
 */
export async function deleteOrder(writer: RouteEngine, data: BookingData, contactUri: string, tickets: readonly StoredRecord[]): Promise<Record<string, unknown>> {
  const deleted: string[] = [];
  const errors: string[] = [];
  const returned = new Set<string>();
  for (const t of tickets) {
    try {
      await writer.delete(t.flock, "ticket", t.id);
      deleted.push(uriOf(t));
      const type = refOf(t.data.bookable_ref);
      const limited = type ? data.types.find((x) => uriOf(x) === type) : undefined;
      if (ticketCounts(t) && limited && stockTotal(limited) !== null) returned.add(type!);
    } catch (e) {
      errors.push(`${uriOf(t)}: ${(e as Error).message}`);
    }
  }
  const order = data.types.map(uriOf);
  return {
    booking_uri: uriOf(data.booking),
    contact_uri: contactUri,
    deleted,
    errors,
    returned_stock: [...returned].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
  };
}
