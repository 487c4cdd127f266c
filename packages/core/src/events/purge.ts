/**
 * @module events/purge
 * Expired data events are deleted from storage for good (spec: data events expire, two
 * years by default or at a per-record `expires_at`). They are audit data, so nothing else
 * removes them; this does, a chunk at a time, so that a large backlog never holds the
 * database for long. The expired ones are found by index (`expires_at__lte=now`).
 */
import type { ListQuery } from "../model/query.js";
import type { Storage } from "../storage/storage.js";
import { formatTimestamp } from "../time.js";
import { DATA_EVENT_TYPE, isDataEventExpired } from "./data-event.js";

/** Data events removed per chunk by default. */
const PURGE_CHUNK_SIZE = 500;

/** Options of `purgeExpiredEvents`. */
export interface PurgeOptions {
  /** At most this many data events are removed by the call (one transaction per flock). Default `PURGE_CHUNK_SIZE`. */
  limit?: number;
  /** Only this flock; default every flock. */
  flock?: string;
}

/**
 * Removes up to `limit` data events whose `expires_at` is at or before `now` (deleted ones
 * included), with their outbox jobs. Returns how many were removed: call again while it
 * returns `limit` to purge a backlog. An unset or unreadable `expires_at` never expires.
 *
 * @example
 * while ((await purgeExpiredEvents(storage, new Date(), { limit: 500 })) === 500) {}
 */
export async function purgeExpiredEvents(storage: Storage, now: Date, options: PurgeOptions = {}): Promise<number> {
  const limit = Math.max(0, Math.floor(options.limit ?? PURGE_CHUNK_SIZE));
  const flocks = options.flock !== undefined ? [options.flock] : (await storage.listFlocks()).map((f) => f.identifier);
  const nowText = formatTimestamp(now);
  let removed = 0;
  for (const flock of flocks) {
    if (removed >= limit) break;
    const query: ListQuery = {
      filters: [{ field: "expires_at", meta: false, op: "lte", values: [{ text: nowText }] }],
      mode: "AND",
      states: ["updated", "deleted"],
      page: 1,
      pageSize: limit - removed,
    };
    const page = await storage.listRecords(flock, DATA_EVENT_TYPE, query);
    // The index compares text; the instant decides (a date-only expiry means 00:00 UTC).
    const ids = page.records.filter((r) => isDataEventExpired(r.data, now)).map((r) => r.id);
    removed += await storage.deleteRecords(flock, DATA_EVENT_TYPE, ids);
  }
  return removed;
}
