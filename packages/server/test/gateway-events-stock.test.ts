/**
 * Stock counting through the whole path, as a property: random sequences of ticket writes
 * (sell, reserve, change quantity, cancel, refund, delete, restore) made through the engine
 * against a ticket type with or without stock, then `available_tickets` and the event
 * packet compared with a small reference model that keeps one entry per ticket.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS } from "./helpers/app.js";

type Status = "booked" | "reserved" | "cancelled" | "refunded" | undefined;
type Op =
  | { kind: "sell"; status: Status; quantity: number | undefined }
  | { kind: "status"; pick: number; status: Status }
  | { kind: "quantity"; pick: number; quantity: number }
  | { kind: "delete"; pick: number }
  | { kind: "restore"; pick: number };

const statusArb = fc.constantFrom<Status>(undefined, "booked", "reserved", "cancelled", "refunded");
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("sell" as const), status: statusArb, quantity: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant("status" as const), pick: fc.nat(), status: statusArb }),
  fc.record({ kind: fc.constant("quantity" as const), pick: fc.nat(), quantity: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("restore" as const), pick: fc.nat() }),
);

/** The model: one entry per ticket; what it takes is decided only when counting. */
interface ModelTicket {
  status: Status;
  quantity: number;
  deleted: boolean;
}

function modelCount(total: number | null, tickets: ModelTicket[]) {
  let allocated = 0;
  let reserved = 0;
  for (const t of tickets) {
    if (t.deleted || t.status === "cancelled" || t.status === "refunded") continue;
    if (t.status === "reserved") reserved += t.quantity;
    else allocated += t.quantity;
  }
  return { total, allocated, reserved, available: total === null ? null : Math.max(0, total - allocated - reserved) };
}

describe("stock counting through the events gateway", () => {
  it("matches the reference model after any sequence of ticket writes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }), fc.array(opArb, { minLength: 1, maxLength: 12 }), async (total, ops) => {
        const t = await createTestApp();
        const booking = (await t.engine.create("alpha", "booking", { title: "Prop", start_date: "2026-01-20" })).id;
        const bUri = `/alpha/booking/${booking}/`;
        const type = (await t.engine.create("alpha", "bookable", { booking_ref: bUri, name: "T", ...(total === null ? {} : { total }) })).id;
        const ids: string[] = [];
        const model: ModelTicket[] = [];
        for (const op of ops) {
          if (op.kind === "sell") {
            const data = { booking_ref: bUri, bookable_ref: `/alpha/bookable/${type}/`, ...(op.status ? { status: op.status } : {}), ...(op.quantity ? { quantity: op.quantity } : {}) };
            ids.push((await t.engine.create("alpha", "ticket", data)).id);
            model.push({ status: op.status, quantity: op.quantity ?? 1, deleted: false });
            continue;
          }
          if (ids.length === 0) continue;
          const i = op.pick % ids.length;
          const m = model[i]!;
          if (op.kind === "delete" || op.kind === "restore") {
            if (m.deleted === (op.kind === "delete")) continue;
            await (op.kind === "delete" ? t.engine.delete("alpha", "ticket", ids[i]!) : t.engine.restore("alpha", "ticket", ids[i]!));
            m.deleted = op.kind === "delete";
          } else if (!m.deleted) {
            const patch = op.kind === "status" ? { status: op.status ?? "booked" } : { quantity: op.quantity };
            await t.engine.update("alpha", "ticket", ids[i]!, patch);
            if (op.kind === "status") m.status = op.status ?? "booked";
            else m.quantity = op.quantity;
          }
        }
        const expected = modelCount(total, model);
        const res = await t.call("GET", `/events/v2/alpha/booking/${booking}/available_tickets`, { key: KEYS.alice });
        const [entry] = ((await res.json()) as { available_tickets: Record<string, unknown>[] }).available_tickets;
        expect(entry).toMatchObject(expected);
        const packet = (await (await t.call("GET", `/events/v2/alpha/booking/${booking}`, { key: KEYS.alice })).json()) as Record<string, unknown>;
        expect(packet).toMatchObject({
          total_stock: total,
          total_stock_allocated: expected.allocated,
          total_stock_available: expected.available,
          is_sold_out: expected.available === 0,
          has_available_tickets: expected.available === null || expected.available > 0,
        });
      }),
      { numRuns: 40 },
    );
  });
});
