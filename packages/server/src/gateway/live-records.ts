/**
 * @module gateway/live-records
 * Every non-deleted record of a type, for gateway paths whose answer is built from a small,
 * bounded set of records (email senders, vehicles): read page by page through the engine.
 */
import { MAX_PAGE_SIZE, parseListQuery, type StoredRecord } from "@records-service/core";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * The flock's non-deleted `type` records, oldest first (the list's default order).
 *
 * @example
 * const senders = await liveRecords(engine, "demo", "email_sender");
 */
export async function liveRecords(engine: RouteEngine, flock: string, type: string): Promise<StoredRecord[]> {
  const base = parseListQuery([], { surface: "v2", now: engine.context.clock.now() });
  const out: StoredRecord[] = [];
  for (let page = 1; ; page++) {
    const { records, total } = await engine.list(flock, type, { ...base, page, pageSize: MAX_PAGE_SIZE });
    out.push(...records);
    if (records.length === 0 || out.length >= total) return out;
  }
}
