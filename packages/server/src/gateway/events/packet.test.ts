import fc from "fast-check";
import type { StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { eventPacket, SUMMARY_FIELDS, summaryPacket, type BookingData } from "./packet.js";

const FLOCK = "demo";
const hex = (n: number) => n.toString(16).padStart(24, "0");
const record = (type: string, n: number, data: Record<string, unknown>): StoredRecord => ({
  id: hex(n),
  flock: FLOCK,
  type,
  state: "updated",
  data,
  displayValue: typeof data.title === "string" ? data.title : `${type} ${n}`,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-02T00:00:00.000000",
  version: 1,
});

/** Stored values of every kind a booking, ticket type or ticket may hold, odd ones included. */
const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: -3, max: 30 }), fc.double({ noNaN: true }), fc.constantFrom("", "x", "3", "draft", "cancelled", "reserved", "refunded", "12.50"), fc.constant(["a", "b"]), fc.constant({ ref: "/demo/x/" }));
const maybe = (key: string, arb: fc.Arbitrary<unknown>) => arb.map((v) => (v === undefined ? {} : { [key]: v }));
const fields = (spec: Record<string, fc.Arbitrary<unknown>>) =>
  fc.tuple(...Object.entries(spec).map(([k, arb]) => maybe(k, arb))).map((parts) => Object.assign({}, ...parts) as Record<string, unknown>);

const bookingArb = fields({
  title: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 5 })),
  start_date: fc.constantFrom(undefined, "2026-01-01", "2026-01-01T10:00:00", "bad", 5),
  end_date: fc.constantFrom(undefined, "2026-01-03", "2025-12-31", null),
  start_time: fc.constantFrom(undefined, "10:30", "9:00", null),
  end_time: fc.constantFrom(undefined, "23:00"),
  status: anyValue,
  cancelled: anyValue,
  ticketed_event: anyValue,
  booking_type: anyValue,
  tags: anyValue,
  location: anyValue,
  // Stored fields named like computed ones: the computed value wins in both packets.
  uid: anyValue,
  created: anyValue,
  is_sold_out: anyValue,
});
const typeArb = fields({ amount: anyValue, total: anyValue, name: anyValue, sort_order: anyValue });
const ticketArb = fc.record({ type: fc.nat({ max: 3 }), data: fields({ status: anyValue, quantity: anyValue, amount: anyValue }) });

describe("summaryPacket", () => {
  it("is the event packet's summary fields (absent ones null), in the summary's order, for any booking", () => {
    fc.assert(
      fc.property(bookingArb, fc.array(typeArb, { maxLength: 3 }), fc.array(ticketArb, { maxLength: 8 }), (b, ts, tks) => {
        const booking = record("booking", 1, b);
        const types = ts.map((d, i) => record("bookable", 10 + i, d));
        const tickets = tks.map((t, i) => record("ticket", 100 + i, { ...t.data, ...(types[t.type] ? { bookable_ref: `/${FLOCK}/bookable/${types[t.type]!.id}/` } : {}) }));
        const data: BookingData = { booking, types, tickets };
        const full = eventPacket(data);
        const expected = Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, full[f] ?? null]));
        expect(JSON.stringify(summaryPacket(data))).toBe(JSON.stringify(expected));
      }),
      { numRuns: 500 },
    );
  });
});
