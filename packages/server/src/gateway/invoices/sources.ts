/**
 * @module gateway/invoices/sources
 * Reads what an invoice is built from (spec v2-gateway 2.1): an `invoice` record and its
 * `line_items`; a membership (`member` or `membership`) as one line priced from itself or
 * its membership type; an order (every counted ticket of one buyer for one event, named by
 * any of them) as one line per ticket type and unit price. A uid that is not of the named
 * type, or is deleted, is a 404.
 */
import { notFound, type StoredRecord } from "@records-service/core";
import { currencyOf, dateOf, numberOf } from "../events/packet.js";
import { recordsByUri } from "../events/read.js";
import { ticketCounts, ticketUnits } from "../events/stock.js";
import { holding, referencing, refOf, uriOf } from "../read-all.js";
import type { InvoiceSource } from "./invoice.js";
import type { InvoiceType } from "./signature.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** The record types an invoice type's uid may name, in the order they are tried. */
const INVOICE_RECORD_TYPES: Readonly<Record<InvoiceType, readonly string[]>> = {
  invoice: ["invoice"],
  membership: ["member", "membership"],
  order: ["ticket"],
};

/**
 * What the invoice `type`/`uid` of `flock` is built from.
 *
 * @example
 * const source = await readInvoiceSource(engine, "demo", "order", ticketId);
 */
export async function readInvoiceSource(engine: RouteEngine, flock: string, type: InvoiceType, uid: string): Promise<InvoiceSource> {
  const record = await _record(engine, flock, type, uid);
  if (type === "invoice") return _fromInvoice(engine, record);
  if (type === "membership") return _fromMembership(engine, record);
  return _fromOrder(engine, record);
}

/** The resource type the invoice's PDF path names for it. */
export function pdfResourceType(source: InvoiceSource): string {
  return source.record.type;
}

// --- internal ---

async function _record(engine: RouteEngine, flock: string, type: InvoiceType, uid: string): Promise<StoredRecord> {
  if (/^[0-9a-f]{24}$/.test(uid)) {
    for (const t of INVOICE_RECORD_TYPES[type]) {
      const r = await engine.read.getRecord(flock, t, uid);
      if (r && r.flock === flock && r.type === t && r.state === "updated") return r;
    }
  }
  throw notFound("not found", `no ${type} invoice ${JSON.stringify(uid.slice(0, 60))} in flock ${flock}`);
}

/** The counted, live payments whose `field` holds `uri`. */
async function _payments(engine: RouteEngine, flock: string, field: string, uri: string, keep: (p: StoredRecord) => boolean = () => true) {
  return holding(await referencing(engine, flock, uri), "payment", field, uri).filter((p) => ticketCounts(p) && keep(p));
}

async function _buyer(engine: RouteEngine, flock: string, uri: string | null): Promise<StoredRecord | undefined> {
  return uri ? (await recordsByUri(engine, flock, [uri])).get(uri) : undefined;
}

async function _fromInvoice(engine: RouteEngine, r: StoredRecord): Promise<InvoiceSource> {
  const d = r.data;
  const buyerUri = refOf(d.billing_contact) ?? refOf(d.person_ref) ?? null;
  const lines = (Array.isArray(d.line_items) ? d.line_items : []).filter((l): l is Record<string, unknown> => typeof l === "object" && l !== null && !Array.isArray(l));
  return {
    type: "invoice",
    flock: r.flock,
    uid: r.id,
    record: r,
    date: dateOf(d.date),
    buyerUri,
    buyer: await _buyer(engine, r.flock, buyerUri),
    billingContact: refOf(d.billing_contact) ?? null,
    context: refOf(d.context_ref) ?? (typeof d.context_ref === "string" ? d.context_ref : null),
    currency: currencyOf(d.currency),
    lines,
    payments: await _payments(engine, r.flock, "invoice_ref", uriOf(r)),
  };
}

async function _fromMembership(engine: RouteEngine, r: StoredRecord): Promise<InvoiceSource> {
  const d = r.data;
  const buyerUri = refOf(d.billing_contact) ?? refOf(d.member) ?? null;
  const planUri = refOf(d.membership_type);
  const plan = planUri ? (await recordsByUri(engine, r.flock, [planUri])).get(planUri) : undefined;
  const planName = plan ? (typeof plan.data.name === "string" ? plan.data.name : plan.displayValue) : typeof d.membership_type === "string" ? d.membership_type : "Membership";
  const price = numberOf(d.amount) ?? (plan ? numberOf(plan.data.amount) : undefined) ?? 0;
  const currency = currencyOf(d.currency, plan ? currencyOf(plan.data.currency) : undefined);
  return {
    type: "membership",
    flock: r.flock,
    uid: r.id,
    record: r,
    date: dateOf(d.start_date),
    buyerUri,
    buyer: await _buyer(engine, r.flock, buyerUri),
    billingContact: refOf(d.billing_contact) ?? null,
    context: uriOf(r),
    currency,
    lines: [{ name: planName, price, quantity: 1, ref: uriOf(r) }],
    payments: await _payments(engine, r.flock, "membership_ref", uriOf(r)),
  };
}

async function _fromOrder(engine: RouteEngine, named: StoredRecord): Promise<InvoiceSource> {
  const flock = named.flock;
  const booking = refOf(named.data.booking_ref) ?? null;
  const buyerUri = refOf(named.data.buyer_ref) ?? null;
  const bookingRefs = booking ? await referencing(engine, flock, booking) : [];
  const tickets = booking
    ? holding(bookingRefs, "ticket", "booking_ref", booking).filter((t) => ticketCounts(t) && (refOf(t.data.buyer_ref) ?? null) === buyerUri)
    : ticketCounts(named)
      ? [named]
      : [];
  const types = await recordsByUri(engine, flock, tickets.map((t) => refOf(t.data.bookable_ref)).filter((u): u is string => u !== undefined));
  // One line per ticket type and unit price (a ticket's amount is what its units cost together).
  const lines = new Map<string, Record<string, unknown>>();
  for (const t of tickets) {
    const typeUri = refOf(t.data.bookable_ref) ?? null;
    const units = ticketUnits(t);
    const unitPrice = (numberOf(t.data.amount) ?? 0) / units;
    const key = `${typeUri ?? ""}|${unitPrice}`;
    const line = lines.get(key);
    if (line) line.quantity = (line.quantity as number) + units;
    else {
      const type = typeUri ? types.get(typeUri) : undefined;
      const name = type ? (typeof type.data.name === "string" ? type.data.name : type.displayValue) : "Ticket";
      lines.set(key, { name, price: unitPrice, quantity: units, ref: typeUri ?? uriOf(t), ...(typeof t.data.currency === "string" ? { currency: t.data.currency } : {}) });
    }
  }
  const ticketUris = new Set(tickets.map(uriOf));
  const byTicket: StoredRecord[] = [];
  for (const uri of ticketUris) byTicket.push(...(await _payments(engine, flock, "ticket_ref", uri)));
  const byBooking = booking && buyerUri ? holding(bookingRefs, "payment", "booking_ref", booking).filter((p) => ticketCounts(p) && refOf(p.data.person_ref) === buyerUri) : [];
  const payments = new Map([...byTicket, ...byBooking].filter((p) => refOf(p.data.ticket_ref) === undefined || ticketUris.has(refOf(p.data.ticket_ref)!)).map((p) => [p.id, p]));
  const dates = tickets.map((t) => dateOf(t.data.purchase_date) ?? t.created.slice(0, 10)).sort();
  return {
    type: "order",
    flock,
    uid: named.id,
    record: named,
    date: dates[0] ?? dateOf(named.data.purchase_date) ?? named.created.slice(0, 10),
    buyerUri,
    buyer: await _buyer(engine, flock, buyerUri),
    billingContact: null,
    context: booking,
    currency: currencyOf(tickets.find((t) => typeof t.data.currency === "string")?.data.currency),
    lines: [...lines.values()],
    payments: [...payments.values()],
  };
}
