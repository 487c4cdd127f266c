/**
 * @module ticket-stock
 * The stored ticket stock (`ticket_stock`, core `model/ticket-stock`): the statements that
 * add a write's deltas to it (in the write's transaction), read it for a page of bookings,
 * and fill it once from the stored tickets (a database written before it existed; the
 * migration that made the table leaves a row in `ticket_stock_backfill` asking for it).
 * What counts is decided in core; this module only runs the statements.
 */
import { TICKET_TYPE, TicketStockDeltas, ticketStockOf, type TicketStockRow } from "@records-service/core";
import type Database from "better-sqlite3";

/** Adds deltas to the stored stock (inside the caller's transaction). */
export type TicketStockWriter = (rows: readonly TicketStockRow[]) => void;

/** The writer for one connection: an upsert per changed row, a row that reaches zero removed. */
export function createTicketStockWriter(client: Database.Database): TicketStockWriter {
  const add = client.prepare(
    `INSERT INTO ticket_stock (flock, booking, bookable, allocated, reserved) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (flock, booking, bookable) DO UPDATE SET allocated = allocated + excluded.allocated, reserved = reserved + excluded.reserved`,
  );
  const dropEmpty = client.prepare("DELETE FROM ticket_stock WHERE flock = ? AND booking = ? AND bookable = ? AND allocated = 0 AND reserved = 0");
  return (rows) => {
    for (const r of rows) {
      add.run(r.flock, r.booking, r.bookable, r.allocated, r.reserved);
      dropEmpty.run(r.flock, r.booking, r.bookable);
    }
  };
}

/** Reads the stock of some bookings of a flock (`RecordStore.listTicketStock`). */
export function createTicketStockReader(client: Database.Database): (flock: string, bookings: readonly string[]) => TicketStockRow[] {
  const sel = client.prepare<[string, string], Omit<TicketStockRow, "flock">>(
    "SELECT booking, bookable, allocated, reserved FROM ticket_stock WHERE flock = ? AND booking IN (SELECT value FROM json_each(?))",
  );
  return (flock, bookings) => (bookings.length === 0 ? [] : sel.all(flock, JSON.stringify(bookings)).map((r) => ({ flock, ...r })));
}

/**
 * Fills `ticket_stock` from the stored tickets when `ticket_stock_backfill` asks for it,
 * then clears the request; call inside the write transaction of the migrations, so another
 * process opening the file meanwhile waits for it and finds nothing to do. Returns how many
 * stock rows it wrote (0 when nothing was asked).
 */
export function backfillTicketStock(client: Database.Database): number {
  if ((client.prepare("SELECT count(*) AS n FROM ticket_stock_backfill").get() as { n: number }).n === 0) return 0;
  client.exec("DELETE FROM ticket_stock");
  const tickets = client.prepare<[string], { flock: string; data: string }>(
    "SELECT c.flock, r.data FROM records r JOIN collections c ON c.cid = r.cid WHERE c.type = ? AND r.state = 'updated'",
  );
  const sums = new TicketStockDeltas();
  for (const row of tickets.iterate(TICKET_TYPE)) sums.add(ticketStockOf({ flock: row.flock, type: TICKET_TYPE, state: "updated", data: JSON.parse(row.data) as Record<string, unknown> }));
  const rows = sums.rows();
  createTicketStockWriter(client)(rows);
  client.exec("DELETE FROM ticket_stock_backfill");
  return rows.length;
}
