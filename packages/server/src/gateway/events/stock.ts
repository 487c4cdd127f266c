/**
 * @module gateway/events/stock
 * Stock counting of the events gateway (spec v2-gateway 1.1): which tickets count, how many
 * units each takes, and a ticket type's `allocated`, `reserved` and `available`. Pure: the
 * records are read elsewhere (gateway/events/read).
 */
import { ticketCounts, ticketReserved, ticketUnits, wholeNumber, type StoredRecord } from "@records-service/core";

export { ticketCounts, ticketUnits };

/** One ticket type's counts. `total` and `available` are null for unlimited stock. */
export interface StockCount {
  total: number | null;
  allocated: number;
  reserved: number;
  available: number | null;
}

/**
 * A ticket type's stock: its `total` when that is a whole number ≥ 0 (a number, or text
 * holding one); null (unlimited) when absent, null or not a number.
 */
export function stockTotal(bookable: Pick<StoredRecord, "data">): number | null {
  const n = wholeNumber(bookable.data.total);
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

/**
 * A ticket type's counts from its stock (`total`, see `stockTotal`) and what its counted
 * tickets take (the stored stock, `Storage.listTicketStock`).
 *
 * @example
 * stockCount(10, 2, 1) // { total: 10, allocated: 2, reserved: 1, available: 7 }
 */
export function stockCount(total: number | null, allocated: number, reserved: number): StockCount {
  return { total, allocated, reserved, available: total === null ? null : Math.max(0, total - allocated - reserved) };
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
  return stockCount(total, allocated, reserved);
}

// --- internal ---

function* _each(tickets: Iterable<Pick<StoredRecord, "state" | "data">>): Iterable<StockGroup> {
  for (const ticket of tickets) yield { ticket, count: 1 };
}
