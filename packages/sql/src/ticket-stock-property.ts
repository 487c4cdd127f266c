/**
 * @module ticket-stock-property
 * The property test of the stored ticket stock (`Storage.listTicketStock`, core
 * `model/ticket-stock`), run by every adapter: random sequences of ticket writes through the
 * engine (creates with any status and quantity, status and quantity changes, moves to
 * another ticket type or booking, deletes, restores, purges) and, after each sequence, the
 * stored stock compared with a small reference model that keeps one entry per ticket and
 * counts only when asked. With `createTwo`, also several writers on two connections to one
 * database selling and cancelling tickets of one ticket type at once, then the stock
 * compared with a recount of the stored tickets. It declares vitest tests: call it at the
 * top level of a test file.
 *
 * @example
 * runTicketStockPropertyTests({ name: "sqlite", create: () => createSqliteStorage({ path: ":memory:" }) });
 */
import { createFakeClock, createRecordEngine, isRecordsError, TicketStockDeltas, ticketStockDelta, type Storage, type TicketStockRow } from "@records-service/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Options of `runTicketStockPropertyTests`. */
export interface TicketStockPropertyTestOptions {
  /** Shown in the test names. */
  name: string;
  /** A fresh, empty Storage per generated case; closed after it. */
  create: () => Promise<Storage> | Storage;
  /** Two Storages on one fresh, empty database (two connections, as two processes have); both closed after. */
  createTwo?: () => Promise<[Storage, Storage]>;
  /** Generated cases (default 60). */
  runs?: number;
  /** Time limit of each test, in ms (default vitest's). */
  timeoutMs?: number;
}

/**
 * Declares the ticket stock property tests for one adapter.
 *
 * @example
 * runTicketStockPropertyTests({ name: "memory", create: createMemoryStorage });
 */
export function runTicketStockPropertyTests(opts: TicketStockPropertyTestOptions): void {
  describe(`ticket stock: ${opts.name}`, () => {
    it("equals the reference model after any sequence of ticket writes", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(_opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
          const storage = await opts.create();
          try {
            await _runOps(storage, ops);
          } finally {
            await storage.close();
          }
        }),
        { numRuns: opts.runs ?? 60 },
      );
    }, opts.timeoutMs);

    it("adds up: a delta is what the record takes after less what it took before", () => {
      const ticket = { flock: _FLOCK, type: "ticket", state: "updated" as const, data: { booking_ref: _bookings[0], bookable_ref: _types[0], quantity: 3 } };
      expect(ticketStockDelta(undefined, ticket)).toEqual([{ flock: _FLOCK, booking: _bookings[0], bookable: _types[0], allocated: 3, reserved: 0 }]);
      expect(ticketStockDelta(ticket, { ...ticket, data: { ...ticket.data, status: "reserved" } })).toEqual([
        { flock: _FLOCK, booking: _bookings[0], bookable: _types[0], allocated: -3, reserved: 3 },
      ]);
      expect(ticketStockDelta(ticket, { ...ticket, state: "deleted" })).toEqual([{ flock: _FLOCK, booking: _bookings[0], bookable: _types[0], allocated: -3, reserved: 0 }]);
      expect(ticketStockDelta(ticket, { ...ticket, data: { ...ticket.data, amount: 5 } })).toEqual([]);
    });

    const createTwo = opts.createTwo;
    // Only adapters with connections of their own have this case (memory has one store, no connections).
    if (createTwo) it("stays right with several writers on two connections selling and cancelling one ticket type at once", async () => {
      const [a, b] = await createTwo();
      try {
        await a.createFlock({ identifier: _FLOCK, name: "Stock", created: "2026-01-15T10:00:00.000000" });
        const engines = [a, b].map((storage) => createRecordEngine({ storage, clock: createFakeClock("2026-01-15T10:00:00.000Z") }));
        const writer = async (w: number) => {
          const engine = engines[w % 2]!;
          const ids: string[] = [];
          for (let i = 0; i < 12; i++) {
            const data = { booking_ref: _bookings[0], bookable_ref: _types[0], quantity: 1 + ((w + i) % 3), ...(i % 4 === 3 ? { status: "reserved" } : {}) };
            ids.push((await _retry(() => engine.create(_FLOCK, "ticket", data))).id);
            if (i % 3 === 2) await _retry(() => engine.update(_FLOCK, "ticket", ids[i - 1]!, { status: "cancelled" }));
            if (i % 5 === 4) await _retry(() => engine.delete(_FLOCK, "ticket", ids[i - 2]!));
          }
        };
        await Promise.all([0, 1, 2, 3, 4, 5].map(writer));
        expect(_sorted(await b.listTicketStock(_FLOCK, _bookings))).toEqual(await _recount(a));
        expect((await a.listTicketStock(_FLOCK, _bookings)).length).toBeGreaterThan(0);
      } finally {
        await a.close();
        await b.close();
      }
    }, opts.timeoutMs);
  });
}

// --- internal ---

const _FLOCK = "stock";
const _bookings = ["b1", "b2"].map((id) => `/${_FLOCK}/booking/${id.padEnd(24, "0")}/`);
const _types = ["t1", "t2", "t3"].map((id) => `/${_FLOCK}/bookable/${id.padEnd(24, "0")}/`);

type _Status = "booked" | "reserved" | "Reserved " | "cancelled" | "REFUNDED" | undefined;
const _statusArb = fc.constantFrom<_Status>(undefined, "booked", "reserved", "Reserved ", "cancelled", "REFUNDED");
/** Quantities as stored: whole numbers, numeric text, and values that count as 1. */
const _quantityArb = fc.constantFrom<unknown>(undefined, 1, 2, 5, " 3 ", 0, -2, 1.5, "x", null);

type _Op =
  | { kind: "sell"; booking: number; type: number; status: _Status; quantity: unknown; bareRef: boolean }
  | { kind: "status"; pick: number; status: _Status }
  | { kind: "quantity"; pick: number; quantity: unknown }
  | { kind: "move"; pick: number; type: number }
  | { kind: "rebook"; pick: number; booking: number }
  | { kind: "delete" | "restore" | "purge"; pick: number };

const _opArb: fc.Arbitrary<_Op> = fc.oneof(
  fc.record({ kind: fc.constant("sell" as const), booking: fc.nat(1), type: fc.nat(2), status: _statusArb, quantity: _quantityArb, bareRef: fc.boolean() }),
  fc.record({ kind: fc.constant("status" as const), pick: fc.nat(), status: _statusArb }),
  fc.record({ kind: fc.constant("quantity" as const), pick: fc.nat(), quantity: _quantityArb }),
  fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), type: fc.nat(2) }),
  fc.record({ kind: fc.constant("rebook" as const), pick: fc.nat(), booking: fc.nat(1) }),
  fc.record({ kind: fc.constantFrom("delete" as const, "restore" as const, "purge" as const), pick: fc.nat() }),
);

/** The model: one entry per ticket; what it takes is decided only when counting (spec v2-gateway 1.1). */
interface _ModelTicket {
  id: string;
  booking: number;
  type: number;
  status: _Status;
  quantity: unknown;
  deleted: boolean;
  purged: boolean;
}

async function _runOps(storage: Storage, ops: readonly _Op[]): Promise<void> {
  await storage.createFlock({ identifier: _FLOCK, name: "Stock", created: "2026-01-15T10:00:00.000000" });
  const engine = createRecordEngine({ storage, clock: createFakeClock("2026-01-15T10:00:00.000Z") });
  const model: _ModelTicket[] = [];
  for (const op of ops) {
    if (op.kind === "sell") {
      // A type reference without its final slash is still the type's (as the gateway reads references).
      const typeRef = op.bareRef ? _types[op.type]!.slice(0, -1) : _types[op.type]!;
      const data = { booking_ref: _bookings[op.booking], bookable_ref: typeRef, ...(op.status ? { status: op.status } : {}), ...(op.quantity !== undefined ? { quantity: op.quantity } : {}) };
      const id = (await engine.create(_FLOCK, "ticket", data)).id;
      model.push({ id, booking: op.booking, type: op.type, status: op.status, quantity: op.quantity, deleted: false, purged: false });
      continue;
    }
    const live = model.filter((m) => !m.purged);
    if (live.length === 0) continue;
    const m = live[op.pick % live.length]!;
    if (op.kind === "purge") {
      await storage.deleteRecords(_FLOCK, "ticket", [m.id]);
      m.purged = true;
    } else if (op.kind === "delete" || op.kind === "restore") {
      if (m.deleted === (op.kind === "delete")) continue;
      await (op.kind === "delete" ? engine.delete(_FLOCK, "ticket", m.id) : engine.restore(_FLOCK, "ticket", m.id));
      m.deleted = op.kind === "delete";
    } else if (!m.deleted) {
      if (op.kind === "status") {
        await engine.update(_FLOCK, "ticket", m.id, { status: op.status ?? "booked" });
        m.status = op.status ?? "booked";
      } else if (op.kind === "quantity") {
        if (op.quantity === undefined) continue;
        await engine.update(_FLOCK, "ticket", m.id, { quantity: op.quantity });
        m.quantity = op.quantity;
      } else if (op.kind === "move") {
        await engine.update(_FLOCK, "ticket", m.id, { bookable_ref: _types[op.type] });
        m.type = op.type;
      } else if (op.kind === "rebook") {
        await engine.update(_FLOCK, "ticket", m.id, { booking_ref: _bookings[op.booking] });
        m.booking = op.booking;
      }
    }
  }
  expect(_sorted(await storage.listTicketStock(_FLOCK, _bookings))).toEqual(_modelStock(model));
  // One booking asked for: only its rows.
  const one = await storage.listTicketStock(_FLOCK, [_bookings[1]!]);
  expect(_sorted(one)).toEqual(_modelStock(model).filter((r) => r.booking === _bookings[1]));
  expect(await storage.listTicketStock("elsewhere", _bookings)).toEqual([]);
}

function _modelStock(model: readonly _ModelTicket[]): TicketStockRow[] {
  const sums = new Map<string, TicketStockRow>();
  for (const t of model) {
    const status = typeof t.status === "string" ? t.status.trim().toLowerCase() : undefined;
    if (t.deleted || t.purged || status === "cancelled" || status === "refunded") continue;
    const q = typeof t.quantity === "number" && Number.isInteger(t.quantity) ? t.quantity : typeof t.quantity === "string" && /^\s*\d+\s*$/.test(t.quantity) ? Number(t.quantity) : 1;
    const units = q >= 1 ? q : 1;
    const key = `${t.booking}|${t.type}`;
    const row = sums.get(key) ?? { flock: _FLOCK, booking: _bookings[t.booking]!, bookable: _types[t.type]!, allocated: 0, reserved: 0 };
    if (status === "reserved") row.reserved += units;
    else row.allocated += units;
    sums.set(key, row);
  }
  return _sorted([...sums.values()].filter((r) => r.allocated !== 0 || r.reserved !== 0));
}

/** The stock recounted from the stored tickets (core's rules over every live ticket). */
async function _recount(storage: Storage): Promise<TicketStockRow[]> {
  const { records } = await storage.listRecords(_FLOCK, "ticket", { filters: [], mode: "AND", states: ["updated", "deleted"], page: 1, pageSize: 10_000 });
  const sums = new TicketStockDeltas();
  for (const r of records) for (const row of ticketStockDelta(undefined, r)) sums.add(row);
  return _sorted(sums.rows());
}

/** Rows in key order, zero rows left out (a store may keep or drop them). */
function _sorted(rows: readonly TicketStockRow[]): TicketStockRow[] {
  return rows
    .filter((r) => r.allocated !== 0 || r.reserved !== 0)
    .map((r) => ({ flock: r.flock, booking: r.booking, bookable: r.bookable, allocated: r.allocated, reserved: r.reserved }))
    .sort((a, b) => (a.booking + a.bookable < b.booking + b.bookable ? -1 : a.booking + a.bookable > b.booking + b.bookable ? 1 : 0));
}

/** Runs `fn` again on a version conflict (another writer changed the record meanwhile). */
async function _retry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isRecordsError(e) || e.code !== "conflict" || attempt >= 20) throw e;
    }
  }
}

/**
 * The tickets the adapters' fill tests store before emptying the stock: in flock `alpha`
 * (created here), two units allocated, one reserved and one deleted ticket of one type;
 * `expected` is the stock a fill must find.
 *
 * @example
 * const { booking, expected } = await storeFillTickets(storage);
 */
export async function storeFillTickets(storage: Storage): Promise<{ booking: string; expected: TicketStockRow[] }> {
  const booking = "/alpha/booking/0123456789abcdef01234567/";
  const bookable = "/alpha/bookable/0123456789abcdef01234568/";
  await storage.createFlock({ identifier: "alpha", name: "Alpha", created: "2026-01-15T10:00:00.000000" });
  const engine = createRecordEngine({ storage, clock: createFakeClock("2026-01-15T10:00:00.000Z") });
  await engine.create("alpha", "ticket", { booking_ref: booking, bookable_ref: bookable, quantity: 2 });
  await engine.create("alpha", "ticket", { booking_ref: booking, bookable_ref: bookable, status: "reserved" });
  const gone = await engine.create("alpha", "ticket", { booking_ref: booking, bookable_ref: bookable });
  await engine.delete("alpha", "ticket", gone.id);
  return { booking, expected: [{ flock: "alpha", booking, bookable, allocated: 2, reserved: 1 }] };
}
