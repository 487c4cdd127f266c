/**
 * @module workers/search-merge
 * The search worker: moves the search index's queue into the index
 * (`Storage.mergeSearchIndex`) every `SEARCH_MERGE_INTERVAL_MS`, so the index follows an
 * acknowledged write within a second (a search merges what is still queued before it
 * answers, so searches never lag; this keeps what they merge small). On PostgreSQL and in
 * memory nothing is queued and each pass is a no-op.
 *
 * Several processes on one database each run this worker; the one holding the `search`
 * lease (`withLease`, for `workers.leaseMs`, renewed while held) merges, the others try to
 * take it every third of the lease. Should two merge at once (a holder stalled past its
 * lease), each queued entry is still merged once: the merge reads the queue inside its
 * own write transaction. A holder killed mid-merge loses nothing: its transaction rolls
 * back and the queue, committed with the writes, is merged by the next holder (at once
 * when the killed process ran on this machine: `leaseOwnerGone`) or by the next search.
 */
import { SEARCH_MERGE_BATCH, SEARCH_MERGE_INTERVAL_MS, withLease } from "@records-service/core";
import { createPollLoop } from "../runtime/poll-loop.js";
import { leaseOwnerGone, processLeaseOwner, type Worker, type WorkerContext, type WorkerFactory } from "../runtime/workers.js";

/** The lease the merging process holds (`records-service jobs` lists it). */
const SEARCH_LEASE = "search";

/** Options of `createSearchMergeWorker` (tests shorten the interval). */
export interface SearchMergeWorkerOptions {
  /** How often the queue is merged, in ms; default `SEARCH_MERGE_INTERVAL_MS`. */
  intervalMs?: number;
  /** Entries per merge transaction; default `SEARCH_MERGE_BATCH`. */
  batch?: number;
}

/** The search worker with its defaults: the one `startServer` runs. */
export const searchMergeWorker: WorkerFactory = (ctx) => createSearchMergeWorker(ctx);

/** Builds the search worker; `start` begins merging, `stop` lets a merge in flight commit, then gives the lease back. */
export function createSearchMergeWorker(ctx: WorkerContext, opts: SearchMergeWorkerOptions = {}): Worker {
  const batch = opts.batch ?? SEARCH_MERGE_BATCH;
  const leaseMs = ctx.settings.workers.leaseMs;
  let lease: { lost: AbortSignal; release: () => void } | undefined;
  let held: Promise<void> | undefined;
  let nextTry = 0;
  let stopped = false;

  /** Takes the lease and keeps it until `release` or its loss; true when taken. */
  const take = () =>
    new Promise<boolean>((answer) => {
      const leaseOpts = { ttlMs: leaseMs, clock: ctx.clock, owner: processLeaseOwner(), isGone: leaseOwnerGone };
      held = withLease(ctx.storage, SEARCH_LEASE, leaseOpts, (lost) =>
        new Promise<void>((release) => {
          lease = { lost, release };
          lost.addEventListener("abort", () => release(), { once: true });
          answer(true);
        }),
      )
        .then(() => answer(false))
        .catch((e: unknown) => {
          answer(false);
          ctx.out(`search: lease failed: ${e instanceof Error ? e.message : String(e)}`);
        })
        .finally(() => {
          lease = undefined;
          held = undefined;
        });
    });

  const pass = async () => {
    if (!lease || lease.lost.aborted) {
      if (held || performance.now() < nextTry) return;
      nextTry = performance.now() + leaseMs / 3;
      if (!(await take())) return; // another process merges
    }
    while (!stopped && lease && !lease.lost.aborted && (await ctx.storage.mergeSearchIndex(batch)) === batch);
  };
  const loop = createPollLoop({
    pollMs: opts.intervalMs ?? SEARCH_MERGE_INTERVAL_MS,
    run: pass,
    onError: (e) => ctx.out(`search: merge failed: ${e instanceof Error ? e.message : String(e)}`),
  });
  return {
    name: "search",
    start() {
      loop.kick();
    },
    async stop() {
      stopped = true;
      await loop.halt();
      lease?.release();
      await held;
    },
  };
}
