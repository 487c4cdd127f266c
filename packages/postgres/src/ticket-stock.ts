/**
 * @module ticket-stock
 * The stored ticket stock (`ticket_stock`, core `model/ticket-stock`): the statements that
 * add a write's deltas to it (in the write's transaction), read it for a page of bookings,
 * and fill it once from the stored tickets (a database written before it existed; the
 * migration that made the table leaves a row in `ticket_stock_backfill` asking for it).
 * What counts is decided in core; this module only runs the statements.
 */
import { TICKET_TYPE, TicketStockDeltas, ticketStockOf, type TicketStockRow } from "@records-service/core";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { exec } from "./exec.js";

/**
 * Adds `rows` (deltas, in key order: concurrent writers lock the rows in one order) to the
 * stored stock on `c`, inside its transaction; a row that reaches zero is removed.
 */
export async function addTicketStock(c: pg.PoolClient, rows: readonly TicketStockRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(f: (r: TicketStockRow) => T) => sql.param(rows.map(f));
  await exec(
    c,
    sql`INSERT INTO ticket_stock (flock, booking, bookable, allocated, reserved)
        SELECT * FROM unnest(${col((r) => r.flock)}::text[], ${col((r) => r.booking)}::text[], ${col((r) => r.bookable)}::text[],
          ${col((r) => r.allocated)}::bigint[], ${col((r) => r.reserved)}::bigint[])
        ON CONFLICT (flock, booking, bookable) DO UPDATE
          SET allocated = ticket_stock.allocated + excluded.allocated, reserved = ticket_stock.reserved + excluded.reserved`,
    "add_ticket_stock",
  );
  await exec(
    c,
    sql`DELETE FROM ticket_stock WHERE allocated = 0 AND reserved = 0
          AND (flock, booking, bookable) IN (SELECT * FROM unnest(${col((r) => r.flock)}::text[], ${col((r) => r.booking)}::text[], ${col((r) => r.bookable)}::text[]))`,
    "drop_empty_ticket_stock",
  );
}

/** The stock of some bookings of a flock (`RecordStore.listTicketStock`). */
export async function readTicketStock(pool: pg.Pool, flock: string, bookings: readonly string[]): Promise<TicketStockRow[]> {
  if (bookings.length === 0) return [];
  const { rows } = await exec<{ booking: string; bookable: string; allocated: string; reserved: string }>(
    pool,
    sql`SELECT booking, bookable, allocated, reserved FROM ticket_stock WHERE flock = ${flock} AND booking = ANY(${sql.param([...bookings])}::text[])`,
    "read_ticket_stock",
  );
  return rows.map((r) => ({ flock, booking: r.booking, bookable: r.bookable, allocated: Number(r.allocated), reserved: Number(r.reserved) }));
}

/**
 * Fills `ticket_stock` from the stored tickets when `ticket_stock_backfill` asks for it,
 * then clears the request, in one transaction on `c` that holds writes to `records` off
 * meanwhile (so no ticket write falls between the read and the fill). Returns how many
 * stock rows it wrote (0 when nothing was asked).
 */
export async function backfillTicketStock(c: pg.PoolClient): Promise<number> {
  // Asked for once per migration: most opens find nothing and take no lock.
  if (Number((await c.query<{ n: string }>("SELECT count(*) AS n FROM ticket_stock_backfill")).rows[0]!.n) === 0) return 0;
  await c.query("BEGIN");
  try {
    await c.query("LOCK TABLE records IN SHARE MODE");
    const pending = await c.query<{ n: string }>("SELECT count(*) AS n FROM ticket_stock_backfill");
    if (Number(pending.rows[0]!.n) === 0) {
      await c.query("COMMIT");
      return 0;
    }
    await c.query("DELETE FROM ticket_stock");
    const tickets = await c.query<{ flock: string; data: string }>(
      "SELECT c.flock, r.data FROM records r JOIN collections c ON c.cid = r.cid WHERE c.type = $1 AND r.state = 'updated'",
      [TICKET_TYPE],
    );
    const sums = new TicketStockDeltas();
    for (const row of tickets.rows) sums.add(ticketStockOf({ flock: row.flock, type: TICKET_TYPE, state: "updated", data: JSON.parse(row.data) as Record<string, unknown> }));
    const rows = sums.rows();
    for (let i = 0; i < rows.length; i += BACKFILL_CHUNK) await addTicketStock(c, rows.slice(i, i + BACKFILL_CHUNK));
    await c.query("DELETE FROM ticket_stock_backfill");
    await c.query("COMMIT");
    return rows.length;
  } catch (e) {
    await c.query("ROLLBACK");
    throw e;
  }
}

/** Stock rows one backfill statement writes. */
const BACKFILL_CHUNK = 5000;
