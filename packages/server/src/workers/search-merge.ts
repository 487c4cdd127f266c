/**
 * @module workers/search-merge
 * The search worker: moves the search index's queue into the index
 * (`Storage.mergeSearchIndex`) every `SEARCH_MERGE_INTERVAL_MS`, so the index follows an
 * acknowledged write within a second (a search merges what is still queued before it
 * answers, so searches never lag; this keeps what they merge small). On PostgreSQL and in
 * memory nothing is queued and each pass is a no-op.
 *
 * Several processes on one database each run this worker; the one holding the `search`
 * lease merges (see leased-drain.ts). Should two merge at once, each queued entry is still
 * merged once: the merge reads the queue inside its own write transaction, committed with
 * the writes that queued it.
 */
import { SEARCH_MERGE_INTERVAL_MS } from "@records-service/core";
import type { Worker, WorkerContext, WorkerFactory } from "../runtime/workers.js";
import { createLeasedDrainWorker } from "./leased-drain.js";

/**
 * Queued entries per merge transaction of the worker: ~4 ms on the thread that serves
 * requests (about 1 ms a transaction and 45 us an entry, at 10k persons), the event loop
 * getting a turn between transactions (leased-drain). One transaction per tick (up to
 * `SEARCH_MERGE_BATCH`) held requests 10-25 ms under 850 creates/s; 64 entries cost
 * 58 us each against 54 for 200, so the slices add little work.
 */
const SEARCH_MERGE_WORKER_BATCH = 64;

/** Options of `createSearchMergeWorker` (tests shorten the interval). */
export interface SearchMergeWorkerOptions {
  /** How often the queue is merged, in ms; default `SEARCH_MERGE_INTERVAL_MS`. */
  intervalMs?: number;
  /** Entries per merge transaction; default `SEARCH_MERGE_WORKER_BATCH`. */
  batch?: number;
}

/** The search worker with its defaults: the one `startServer` runs. */
export const searchMergeWorker: WorkerFactory = (ctx) => createSearchMergeWorker(ctx);

/** Builds the search worker. */
export function createSearchMergeWorker(ctx: WorkerContext, opts: SearchMergeWorkerOptions = {}): Worker {
  return createLeasedDrainWorker(ctx, {
    name: "search",
    lease: "search",
    intervalMs: opts.intervalMs ?? SEARCH_MERGE_INTERVAL_MS,
    batch: opts.batch ?? SEARCH_MERGE_WORKER_BATCH,
    drain: (batch) => ctx.storage.mergeSearchIndex(batch),
  });
}
