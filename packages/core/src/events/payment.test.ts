import { describe, expect, it } from "vitest";
import { EVENT_CATALOGUE } from "./catalogue.js";
import { PAYMENT_PRECEDENCE, paymentEvent, paymentReferences, referenceValue } from "./payment.js";

/** The spec's order, then the booking decision, as literal data: field, event. */
const ORDER: [string, string][] = [
  ["membership_ref", "membership_payment_received"],
  ["ticket_ref", "ticket_payment_received"],
  ["donation_ref", "donation_payment_received"],
  ["reservation_ref", "reservation_payment_received"],
  ["invoice_ref", "invoice_payment_received"],
  ["booking_ref", "order_payment_received"],
];

const uri = (type: string) => `/demo/${type}/0123456789abcdef01234567/`;

/** Every subset of the six references: 64 payments. */
const COMBINATIONS = Array.from({ length: 1 << ORDER.length }, (_, mask) => {
  const fields = ORDER.filter((_, i) => mask & (1 << i)).map(([f]) => f);
  const first = ORDER.find(([f]) => fields.includes(f));
  return { fields, expected: first ? first[1] : "payment_received", field: first ? first[0] : null };
});

describe("paymentEvent: one event by precedence", () => {
  it("keeps the spec's order, booking last before payment_received", () => {
    expect(PAYMENT_PRECEDENCE.map((p) => [p.field, p.event])).toEqual(ORDER);
  });

  it.each(COMBINATIONS)("references $fields → $expected", ({ fields, expected, field }) => {
    const data: Record<string, unknown> = { amount: 10, payment_date: "2026-03-01" };
    for (const f of fields) data[f] = uri(f.replace(/_ref$/, ""));
    const e = paymentEvent(data);
    expect(e.name).toBe(expected);
    expect(e.field).toBe(field);
    expect(e.ref).toBe(field ? uri(field.replace(/_ref$/, "")) : null);
    expect(EVENT_CATALOGUE.triggers.get(e.name)?.entry.group).toBe("payment");
  });

  it.each([
    ["a URI", uri("member"), uri("member")],
    ["a {ref} object", { display_value: "Ada", ref: uri("member") }, uri("member")],
    ["a list entry with a label", [`${uri("member")};annual`], uri("member")],
    ["a list with a blank first element", ["", null, uri("member")], uri("member")],
    ["a bare id", "0123456789abcdef01234567", "0123456789abcdef01234567"],
    ["null", null, null],
    ["a blank string", "  ", null],
    ["an empty list", [], null],
    ["a number", 7, null],
    ["an object without ref", { display_value: "Ada" }, null],
  ])("a reference written as %s", (_, value, expected) => {
    expect(referenceValue(value)).toBe(expected);
    expect(paymentEvent({ membership_ref: value, invoice_ref: uri("invoice") }).name).toBe(
      expected === null ? "invoice_payment_received" : "membership_payment_received",
    );
  });
});

describe("paymentReferences", () => {
  it("lists every reference in precedence order", () => {
    expect(paymentReferences({ booking_ref: uri("booking"), membership_ref: uri("member"), amount: 1 })).toEqual([
      { field: "membership_ref", ref: uri("member") },
      { field: "booking_ref", ref: uri("booking") },
    ]);
    expect(paymentReferences({ amount: 1 })).toEqual([]);
  });
});
