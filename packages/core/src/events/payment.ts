/**
 * @module events/payment
 * Which one event a payment emits. The spec: "when a payment carries more than one
 * reference, only one event fires, chosen by precedence: membership, ticket, donation,
 * reservation, invoice, and finally payment_received". A booking reference (the
 * `order_payment_received` event), which that sentence leaves out, ranks just above
 * the plain `payment_received`, so the spec's stated order stays intact.
 */
import { parseEntry } from "../schema/list-entries.js";

/** One reference field of a payment and the event it selects. */
export interface PaymentReference {
  field: string;
  event: string;
}

/** The reference fields in order of precedence (highest first). */
export const PAYMENT_PRECEDENCE: readonly PaymentReference[] = Object.freeze([
  { field: "membership_ref", event: "membership_payment_received" },
  { field: "ticket_ref", event: "ticket_payment_received" },
  { field: "donation_ref", event: "donation_payment_received" },
  { field: "reservation_ref", event: "reservation_payment_received" },
  { field: "invoice_ref", event: "invoice_payment_received" },
  { field: "booking_ref", event: "order_payment_received" },
]);

/** The event of a payment that references none of the above. */
const PLAIN_PAYMENT_EVENT = "payment_received";

/** The event a payment emits and the reference that chose it (null for `payment_received`). */
export interface PaymentEvent {
  name: string;
  field: string | null;
  ref: string | null;
}

/**
 * The one event a payment record's data emits.
 *
 * @example
 * paymentEvent({ amount: 10, ticket_ref: "/demo/ticket/…/", invoice_ref: "/demo/invoice/…/" })
 * // { name: "ticket_payment_received", field: "ticket_ref", ref: "/demo/ticket/…/" }
 * paymentEvent({ amount: 10 }) // { name: "payment_received", field: null, ref: null }
 */
export function paymentEvent(data: Readonly<Record<string, unknown>>): PaymentEvent {
  for (const p of PAYMENT_PRECEDENCE) {
    const ref = referenceValue(data[p.field]);
    if (ref !== null) return { name: p.event, field: p.field, ref };
  }
  return { name: PLAIN_PAYMENT_EVENT, field: null, ref: null };
}

/**
 * Every reference a payment carries, in precedence order: the records it pays for. The
 * scheduler's `paidUris` (for `no_payment_*` events) is the union of these.
 */
export function paymentReferences(data: Readonly<Record<string, unknown>>): { field: string; ref: string }[] {
  const out: { field: string; ref: string }[] = [];
  for (const p of PAYMENT_PRECEDENCE) {
    const ref = referenceValue(data[p.field]);
    if (ref !== null) out.push({ field: p.field, ref });
  }
  return out;
}

/**
 * The reference a field holds, or null when it holds none: a non-blank string (a list
 * entry's `;label` dropped), a `{ref}` object as clients may write it, or the first such
 * element of a list.
 */
export function referenceValue(v: unknown): string | null {
  if (typeof v === "string") {
    const value = parseEntry(v.trim()).value.trim();
    return value === "" ? null : value;
  }
  if (Array.isArray(v)) {
    for (const element of v) {
      const ref = referenceValue(element);
      if (ref !== null) return ref;
    }
    return null;
  }
  if (typeof v === "object" && v !== null && "ref" in v) return referenceValue((v as { ref: unknown }).ref);
  return null;
}
