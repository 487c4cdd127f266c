/**
 * @module model/ticket-stock
 * The ticket stock read model (spec v2-gateway 1.1): per flock, booking and ticket type
 * (`bookable`), the units its counted tickets take, split into `allocated` and `reserved`.
 * The rules of which ticket counts and for how much live here, once: the events gateway
 * counts whole tickets with them, and every adapter keeps the stored count with them,
 * adding `ticketStockDelta(before, after)` of each ticket it writes in the write's own
 * transaction (so the count is right with several processes writing at once: it is a
 * sum of deltas, each taken under the ticket's version check). Pure, no I/O.
 */
import type { StoredRecord } from "./record.js";

/** The record type whose records the stock counts. */
export const TICKET_TYPE = "ticket";

/** The ticket fields the stock reads: a write that changes none of them (nor the state) changes no stock. */
export const TICKET_STOCK_FIELDS: readonly string[] = ["booking_ref", "bookable_ref", "status", "quantity"];

/** Ticket statuses that give the place back: such a ticket takes no stock. */
const RELEASED_STATUSES: readonly string[] = ["cancelled", "refunded"];

/** The ticket status that holds stock without selling it. */
const RESERVED_STATUS = "reserved";

/** The stock one booking's ticket type holds in a flock (or a change to it: a delta). */
export interface TicketStockRow {
  flock: string;
  /** The booking's canonical URI (the ticket's `booking_ref`). */
  booking: string;
  /** The ticket type's canonical URI (the ticket's `bookable_ref`). */
  bookable: string;
  allocated: number;
  reserved: number;
}

/**
 * True when the ticket takes stock: not deleted, and its `status` is not `cancelled` or
 * `refunded` (absent, `booked`, `reserved` or any other word count).
 *
 * @example
 * ticketCounts({ state: "updated", data: { status: "refunded" } }) // false
 */
export function ticketCounts(ticket: Pick<StoredRecord, "state" | "data">): boolean {
  if (ticket.state !== "updated") return false;
  const status = ticket.data.status;
  return !(typeof status === "string" && RELEASED_STATUSES.includes(status.trim().toLowerCase()));
}

/** True for a ticket whose status is `reserved` (whether it counts is `ticketCounts`). */
export function ticketReserved(ticket: Pick<StoredRecord, "data">): boolean {
  const status = ticket.data.status;
  return typeof status === "string" && status.trim().toLowerCase() === RESERVED_STATUS;
}

/**
 * The units of stock a ticket takes: its `quantity` when that is a whole number ≥ 1 (a
 * number, or text holding one), else 1.
 *
 * @example
 * ticketUnits({ data: { quantity: 3 } }) // 3
 * ticketUnits({ data: {} }) // 1
 */
export function ticketUnits(ticket: Pick<StoredRecord, "data">): number {
  const n = wholeNumber(ticket.data.quantity);
  return n !== undefined && n >= 1 ? n : 1;
}

/** A whole number from a stored number or text holding only digits (15 at most), else undefined. */
export function wholeNumber(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === "string" && /^\s*\d{1,15}\s*$/.test(v)) return Number(v);
  return undefined;
}

/**
 * The URI a reference field's value holds (a URI string, or `{ref}`), with its final
 * slash (the canonical form); else undefined (a list holds no one reference).
 *
 * @example
 * refUri("/demo/booking/b1") // "/demo/booking/b1/"
 */
export function refUri(value: unknown): string | undefined {
  const raw = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).ref : value;
  if (typeof raw !== "string" || !raw.startsWith("/")) return undefined;
  return raw.endsWith("/") ? raw : `${raw}/`;
}

/**
 * `uri` when it has the shape of a record's URI (`/flock/type/id/`, no U+0000, at most
 * `MAX_STOCK_URI_LENGTH` long), else undefined: only such a URI can name a booking or a
 * ticket type, so the stock keeps no other (and its keys fit any database's index).
 */
function _recordShaped(uri: string | undefined): string | undefined {
  return uri !== undefined && uri.length <= MAX_STOCK_URI_LENGTH && _RECORD_URI.test(uri) ? uri : undefined;
}

/** The longest reference the stock keys by (a record URI is far shorter). */
const MAX_STOCK_URI_LENGTH = 512;

/** A record URI's shape (as core's `parseRecordUri` reads one, before it checks the parts). */
const _RECORD_URI = /^\/[^/\s\u0000]+\/[^/\s\u0000]+\/[^/\s\u0000]+\/$/;

/**
 * What one record adds to the stock: a counted ticket whose `booking_ref` is a record URI
 * (the stored text, as the events gateway finds a booking's tickets by it) and whose
 * `bookable_ref` refers to one (`refUri`) adds its units to its booking's type, as allocated or reserved; anything
 * else adds nothing (undefined).
 *
 * @example
 * ticketStockOf(ticket) // { flock: "demo", booking: "/demo/booking/b1/", bookable: "/demo/bookable/t1/", allocated: 2, reserved: 0 }
 */
export function ticketStockOf(r: Pick<StoredRecord, "flock" | "type" | "state" | "data">): TicketStockRow | undefined {
  if (r.type !== TICKET_TYPE || !ticketCounts(r)) return undefined;
  // The booking as its tickets are found (the stored text of `booking_ref` is its URI); the
  // ticket type as a reference is read (`refUri`: `{ref}` or a URI without its final slash too).
  const booking = _recordShaped(typeof r.data.booking_ref === "string" ? r.data.booking_ref : undefined);
  const bookable = _recordShaped(refUri(r.data.bookable_ref));
  if (booking === undefined || bookable === undefined) return undefined;
  const units = ticketUnits(r);
  const reserved = ticketReserved(r);
  return { flock: r.flock, booking, bookable, allocated: reserved ? 0 : units, reserved: reserved ? units : 0 };
}

/**
 * The change to the stock of a record going from `before` (undefined: a new record) to
 * `after` (undefined: removed for good): at most two rows, none with both counts 0.
 *
 * @example
 * ticketStockDelta(undefined, ticket) // [ticketStockOf(ticket)]
 */
export function ticketStockDelta(
  before: Pick<StoredRecord, "flock" | "type" | "state" | "data"> | undefined,
  after: Pick<StoredRecord, "flock" | "type" | "state" | "data"> | undefined,
): TicketStockRow[] {
  const out = new TicketStockDeltas();
  if (before) out.sub(ticketStockOf(before));
  if (after) out.add(ticketStockOf(after));
  return out.rows();
}

/** Stock deltas gathered over one transaction, by key, for one statement at its end. */
export class TicketStockDeltas {
  private readonly byKey = new Map<string, TicketStockRow>();

  /** Adds `row` (nothing for undefined). */
  add(row: TicketStockRow | undefined, sign = 1): void {
    if (!row) return;
    const key = JSON.stringify([row.flock, row.booking, row.bookable]);
    const d = this.byKey.get(key) ?? { flock: row.flock, booking: row.booking, bookable: row.bookable, allocated: 0, reserved: 0 };
    d.allocated += sign * row.allocated;
    d.reserved += sign * row.reserved;
    this.byKey.set(key, d);
  }

  /** Takes `row` away (nothing for undefined). */
  sub(row: TicketStockRow | undefined): void {
    this.add(row, -1);
  }

  /** The rows that change something, in key order (so concurrent writers lock them in one order). */
  rows(): TicketStockRow[] {
    return [...this.byKey.entries()]
      .filter(([, d]) => d.allocated !== 0 || d.reserved !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, d]) => d);
  }
}
