import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countStock, countStockGroups, stockTotal, ticketUnits } from "./stock.js";

/** A ticket as the model sees it. */
const ticketArb = fc.record({
  deleted: fc.boolean(),
  status: fc.constantFrom(undefined, "booked", "reserved", "cancelled", "refunded", "Reserved", "CANCELLED"),
  quantity: fc.constantFrom(undefined, 1, 2, 5, 0, -1, "3", "x", 2.5, null),
});
type ModelTicket = typeof ticketArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * The reference model: every ticket becomes one token per unit it takes, each token is
 * tagged with where it went; the counts are the numbers of tokens per tag.
 */
function model(total: number | null, tickets: ModelTicket[]) {
  const tokens: ("allocated" | "reserved" | "released")[] = [];
  for (const t of tickets) {
    const q = t.quantity;
    const units = (typeof q === "number" && Number.isInteger(q) && q >= 1) || (typeof q === "string" && /^\d+$/.test(q) && Number(q) >= 1) ? Number(q) : 1;
    const status = (t.status ?? "").toLowerCase();
    const tag = t.deleted || status === "cancelled" || status === "refunded" ? "released" : status === "reserved" ? "reserved" : "allocated";
    for (let i = 0; i < units; i++) tokens.push(tag);
  }
  const allocated = tokens.filter((x) => x === "allocated").length;
  const reserved = tokens.filter((x) => x === "reserved").length;
  let available: number | null = null;
  if (total !== null) {
    available = total;
    for (let i = 0; i < allocated + reserved && available > 0; i++) available -= 1;
  }
  return { total, allocated, reserved, available };
}

const asRecord = (t: ModelTicket) => ({
  state: t.deleted ? ("deleted" as const) : ("updated" as const),
  data: { ...(t.status === undefined ? {} : { status: t.status }), ...(t.quantity === undefined ? {} : { quantity: t.quantity }) },
});

describe("countStock", () => {
  it("agrees with the token model for any tickets and stock (limited or not)", () => {
    fc.assert(
      fc.property(fc.option(fc.nat(40), { nil: null }), fc.array(ticketArb, { maxLength: 30 }), (total, tickets) => {
        expect(countStock(total, tickets.map(asRecord))).toEqual(model(total, tickets));
      }),
      { numRuns: 500 },
    );
  });

  it("counts groups of like tickets as the model counts the tickets one by one", () => {
    fc.assert(
      fc.property(fc.option(fc.nat(60), { nil: null }), fc.array(fc.tuple(ticketArb, fc.integer({ min: 1, max: 5 })), { maxLength: 12 }), (total, groups) => {
        const expanded = groups.flatMap(([t, n]) => Array.from({ length: n }, () => t));
        expect(countStockGroups(total, groups.map(([t, count]) => ({ ticket: asRecord(t), count })))).toEqual(model(total, expanded));
      }),
      { numRuns: 500 },
    );
  });

  it("never counts available below zero, and available + sold = total while stock lasts", () => {
    fc.assert(
      fc.property(fc.nat(20), fc.array(ticketArb, { maxLength: 20 }), (total, tickets) => {
        const c = countStock(total, tickets.map(asRecord));
        expect(c.available).toBeGreaterThanOrEqual(0);
        if (c.allocated + c.reserved <= total) expect(c.available! + c.allocated + c.reserved).toBe(total);
        else expect(c.available).toBe(0);
      }),
    );
  });

  it.each([
    { name: "absent", data: {}, expected: null },
    { name: "null", data: { total: null }, expected: null },
    { name: "a number", data: { total: 12 }, expected: 12 },
    { name: "zero", data: { total: 0 }, expected: 0 },
    { name: "numeric text", data: { total: "7" }, expected: 7 },
    { name: "negative", data: { total: -3 }, expected: null },
    { name: "words", data: { total: "lots" }, expected: null },
  ])("stockTotal: $name", ({ data, expected }) => {
    expect(stockTotal({ data })).toBe(expected);
  });

  it("ticketUnits defaults to one", () => {
    expect(ticketUnits({ data: {} })).toBe(1);
    expect(ticketUnits({ data: { quantity: 4 } })).toBe(4);
    expect(ticketUnits({ data: { quantity: 0 } })).toBe(1);
  });
});
