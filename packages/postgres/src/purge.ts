/**
 * @module purge
 * `deleteRecords`: removes records for good (the purge of expired data events), in one
 * transaction with everything derived from them: their `record_values` and `record_refs`
 * rows, their share of `collection_counts` (and, for tickets, of `ticket_stock`), their files and, for data events, their outbox
 * jobs. One statement per table for the whole chunk.
 */
import { TICKET_TYPE, TicketStockDeltas, ticketStockOf, type RecordState } from "@records-service/core";
import { removedByState } from "@records-service/sql";
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { Catalog } from "./catalog.js";
import { exec } from "./exec.js";
import { addTicketStock } from "./ticket-stock.js";

/**
 * Removes the named records of one flock and type on `c` (inside a transaction); returns
 * how many there were.
 */
export async function purgeRecords(c: pg.PoolClient, catalog: Catalog, flock: string, type: string, ids: readonly string[]): Promise<number> {
  const cid = await catalog.collectionId(c, flock, type);
  if (cid === undefined || ids.length === 0) return 0;
  const { rows } = await exec<{ rid: string; id: string; state: string; data: string }>(
    c,
    sql`DELETE FROM records WHERE cid = ${cid} AND id = ANY(${sql.param([...new Set(ids)])}::text[]) RETURNING rid, id, state, data`,
    "purge_records",
  );
  if (rows.length === 0) return 0;
  if (type === TICKET_TYPE) {
    const stock = new TicketStockDeltas();
    for (const r of rows) stock.sub(ticketStockOf({ flock, type, state: r.state as RecordState, data: JSON.parse(r.data) as Record<string, unknown> }));
    await addTicketStock(c, stock.rows());
  }
  const rids = sql.param(rows.map((r) => r.rid));
  const removed = sql.param(rows.map((r) => r.id));
  await exec(c, sql`DELETE FROM record_values WHERE rid = ANY(${rids}::bigint[])`, "purge_values");
  await exec(c, sql`DELETE FROM record_refs WHERE rid = ANY(${rids}::bigint[])`, "purge_refs");
  await exec(c, sql`DELETE FROM record_search WHERE rid = ANY(${rids}::bigint[])`, "purge_search");
  await exec(c, sql`DELETE FROM files WHERE flock = ${flock} AND record_type = ${type} AND record_id = ANY(${removed}::text[])`, "purge_files");
  // The outbox is keyed by job, not by data event.
  await exec(c, sql`DELETE FROM outbox WHERE flock = ${flock} AND data_event_id = ANY(${removed}::text[])`, "purge_jobs");
  for (const [state, n] of removedByState(rows.map((r) => r.state))) {
    await exec(c, sql`UPDATE collection_counts SET n = n - ${n} WHERE cid = ${cid} AND state = ${state}`, "purge_counts");
  }
  return rows.length;
}
