/**
 * @module workers/leased-drain
 * A worker that drains background work the database keeps (the search index's queue, the
 * value index's back-fills), one batch after another every `intervalMs`, in the one process
 * holding its lease. The others try to take the lease every third of `workers.leaseMs`.
 * The work itself must be safe should two processes drain at once (a holder stalled past
 * its lease): each batch is one transaction over rows the database holds, so a holder killed
 * mid-batch loses nothing, and the next holder (at once when the killed process ran on this
 * machine: `leaseOwnerGone`) goes on from what was committed.
 *
 * A drain call is synchronous work on the thread that serves requests (better-sqlite3), so
 * the pass gives the event loop a turn between calls: requests that arrived meanwhile are
 * served between two batches rather than after the whole backlog (one 250 ms tick of the
 * search queue under creates was a 10-25 ms stall, the writes' p99; docs/performance.md).
 */
import { withLease } from "@records-service/core";
import { createPollLoop } from "../runtime/poll-loop.js";
import { leaseOwnerGone, processLeaseOwner, type Worker, type WorkerContext } from "../runtime/workers.js";

/** What one leased drain worker does. */
export interface LeasedDrainOptions {
  /** The worker's name (in its log lines). */
  name: string;
  /** The lease the draining process holds (`records-service jobs` lists it). */
  lease: string;
  /** How often it drains, in ms. */
  intervalMs: number;
  /** The most one `drain` call moves: its size bounds how long the event loop waits for a call. */
  batch: number;
  /** Moves up to `batch`; answers how much it moved (fewer than `batch`: nothing left). */
  drain(batch: number): Promise<number>;
}

/** Builds the worker; `start` begins draining, `stop` lets a batch in flight commit, then gives the lease back. */
export function createLeasedDrainWorker(ctx: WorkerContext, opts: LeasedDrainOptions): Worker {
  const leaseMs = ctx.settings.workers.leaseMs;
  let lease: { lost: AbortSignal; release: () => void } | undefined;
  let held: Promise<void> | undefined;
  let nextTry = 0;
  let stopped = false;

  /** Takes the lease and keeps it until `release` or its loss; true when taken. */
  const take = () =>
    new Promise<boolean>((answer) => {
      const leaseOpts = { ttlMs: leaseMs, clock: ctx.clock, owner: processLeaseOwner(), isGone: leaseOwnerGone };
      held = withLease(ctx.storage, opts.lease, leaseOpts, (lost) =>
        new Promise<void>((release) => {
          lease = { lost, release };
          lost.addEventListener("abort", () => release(), { once: true });
          answer(true);
        }),
      )
        .then(() => answer(false))
        .catch((e: unknown) => {
          answer(false);
          ctx.out(`${opts.name}: lease failed: ${e instanceof Error ? e.message : String(e)}`);
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
      if (!(await take())) return; // another process drains
    }
    while (!stopped && lease && !lease.lost.aborted && (await opts.drain(opts.batch)) >= opts.batch) await _turn();
  };
  const loop = createPollLoop({
    pollMs: opts.intervalMs,
    run: pass,
    onError: (e) => ctx.out(`${opts.name}: failed: ${e instanceof Error ? e.message : String(e)}`),
  });
  return {
    name: opts.name,
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

// --- internal ---

/** Resolves after the event loop's next poll for I/O, so requests waiting are served first. */
function _turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
