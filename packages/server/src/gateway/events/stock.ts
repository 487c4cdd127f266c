/**
 * @module gateway/events/stock
 * Stock counting of the events gateway (spec v2-gateway 1.1): which tickets count, how many
 * units each takes, and a ticket type's `allocated`, `reserved` and `available`. Pure: the
 * records are read elsewhere (gateway/events/read).
 */
import type { StoredRecord } from "@records-service/core";

/** Ticket statuses that give the place back: such a ticket takes no stock. */
const RELEASED_STATUSES: readonly string[] = ["cancelled", "refunded"];

/** The ticket status that holds stock without selling it. */
const RESERVED_STATUS = "reserved";

/** One ticket type's counts. `total` and `available` are null for unlimited stock. */
export interface StockCount {
  total: number | null;
  allocated: number;
  reserved: number;
  available: number | null;
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

/** True for a counted ticket whose status is `reserved`. */
function ticketReserved(ticket: Pick<StoredRecord, "data">): boolean {
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
  const n = _wholeNumber(ticket.data.quantity);
  return n !== undefined && n >= 1 ? n : 1;
}

/**
 * A ticket type's stock: its `total` when that is a whole number ≥ 0 (a number, or text
 * holding one); null (unlimited) when absent, null or not a number.
 */
export function stockTotal(bookable: Pick<StoredRecord, "data">): number | null {
  const n = _wholeNumber(bookable.data.total);
  return n !== undefined && n >= 0 ? n : null;
}

/**
 * Counts one ticket type over its tickets (those that do not count are skipped here, so
 * the caller may pass every ticket of the type).
 *
 * @example
 * countStock(10, [{ state: "updated", data: { quantity: 2 } }, { state: "updated", data: { status: "reserved" } }])
 * // { total: 10, allocated: 2, reserved: 1, available: 7 }
 */
export function countStock(total: number | null, tickets: Iterable<Pick<StoredRecord, "state" | "data">>): StockCount {
  return countStockGroups(total, _each(tickets));
}

/** Tickets alike in what stock counting reads: one of them, and how many there are. */
export interface StockGroup {
  ticket: Pick<StoredRecord, "state" | "data">;
  count: number;
}

/**
 * `countStock` over groups of like tickets (`Storage.countFieldValues`): the same counts as
 * over the tickets one by one, each group's units taken `count` times.
 *
 * @example
 * countStockGroups(10, [{ ticket: { state: "updated", data: { quantity: 2 } }, count: 3 }])
 * // { total: 10, allocated: 6, reserved: 0, available: 4 }
 */
export function countStockGroups(total: number | null, groups: Iterable<StockGroup>): StockCount {
  let allocated = 0;
  let reserved = 0;
  for (const { ticket, count } of groups) {
    if (!ticketCounts(ticket)) continue;
    if (ticketReserved(ticket)) reserved += ticketUnits(ticket) * count;
    else allocated += ticketUnits(ticket) * count;
  }
  const available = total === null ? null : Math.max(0, total - allocated - reserved);
  return { total, allocated, reserved, available };
}

// --- internal ---

function* _each(tickets: Iterable<Pick<StoredRecord, "state" | "data">>): Iterable<StockGroup> {
  for (const ticket of tickets) yield { ticket, count: 1 };
}

function _wholeNumber(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === "string" && /^\s*\d{1,15}\s*$/.test(v)) return Number(v);
  return undefined;
}
