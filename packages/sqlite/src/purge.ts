/**
 * @module purge
 * `deleteRecords`: removes records for good (the purge of expired data events), in one
 * transaction with everything derived from them: their `record_values` and `record_refs`
 * rows, their share of `collection_counts` (and, for tickets, of `ticket_stock`), their files and, for data events, their
 * outbox jobs. Each step is a lookup by key, so a purge chunk costs what it removes.
 */
import { TICKET_TYPE, TicketStockDeltas, ticketStockOf, type RecordState } from "@records-service/core";
import { removedByState } from "@records-service/sql";
import type { Catalog } from "./catalog.js";
import type { Db } from "./open.js";
import { createTicketStockWriter } from "./ticket-stock.js";

/** Removes the named records of one flock and type; returns how many there were. */
export type RecordPurger = (flock: string, type: string, ids: readonly string[]) => number;

/** The purger for one connection. */
export function createRecordPurger(db: Db, catalog: Catalog): RecordPurger {
  const client = db.$client;
  const sel = client.prepare<[number, string], { rid: number; state: string; data: string }>(
    "SELECT rid, state, data FROM records WHERE cid = ? AND id = ?",
  );
  const writeStock = createTicketStockWriter(client);
  const delValues = client.prepare("DELETE FROM record_values WHERE rid = ?");
  const delRefs = client.prepare("DELETE FROM record_refs WHERE rid = ?");
  const delRecord = client.prepare("DELETE FROM records WHERE rid = ?");
  const delSearch = client.prepare("DELETE FROM record_search WHERE rowid = ?");
  const delFiles = client.prepare("DELETE FROM files WHERE flock = ? AND record_type = ? AND record_id = ?");
  const subCount = client.prepare("UPDATE collection_counts SET n = n - ? WHERE cid = ? AND state = ?");
  const delJobs = client.prepare("DELETE FROM outbox WHERE flock = ? AND data_event_id IN (SELECT value FROM json_each(?))");

  const run = client.transaction((flock: string, type: string, ids: readonly string[]): number => {
    const cid = catalog.collectionId(flock, type);
    if (cid === undefined) return 0;
    const states: string[] = [];
    const removedIds: string[] = [];
    const stock = new TicketStockDeltas();
    for (const id of new Set(ids)) {
      const row = sel.get(cid, id);
      if (!row) continue;
      if (type === TICKET_TYPE) stock.sub(ticketStockOf({ flock, type, state: row.state as RecordState, data: JSON.parse(row.data) as Record<string, unknown> }));
      delValues.run(row.rid);
      delRefs.run(row.rid);
      delSearch.run(row.rid);
      delRecord.run(row.rid);
      delFiles.run(flock, type, id);
      states.push(row.state);
      removedIds.push(id);
    }
    for (const [state, n] of removedByState(states)) subCount.run(n, cid, state);
    writeStock(stock.rows());
    // One statement per chunk: the outbox is keyed by job, not by data event.
    if (removedIds.length > 0) delJobs.run(flock, JSON.stringify(removedIds));
    return removedIds.length;
  });

  return (flock, type, ids) => (ids.length === 0 ? 0 : run.immediate(flock, type, ids));
}
