/**
 * @module workers/index-build
 * The index worker: moves the value index's unfinished registry rows forward
 * (`Storage.stepFieldIndexes`): the back-fill of a field that was declared or earned its
 * index, and the removal of a dropped field's entries, a few hundred records per
 * transaction, so no write waits long behind it. Each row's cursor is in the database, so
 * a back-fill goes on after a restart, and in whichever process holds the `indexes` lease
 * (see leased-drain.ts).
 */
import type { Worker, WorkerContext, WorkerFactory } from "../runtime/workers.js";
import { createLeasedDrainWorker } from "./leased-drain.js";

/** How often unfinished back-fills are looked for, in ms. */
const INDEX_BUILD_INTERVAL_MS = 1000;

/**
 * Records walked per drain call: one step (a transaction of at most 500), the event loop
 * getting a turn between steps (leased-drain) rather than after four of them.
 */
const INDEX_BUILD_BATCH = 500;

/** Options of `createIndexBuildWorker` (tests shorten the interval). */
export interface IndexBuildWorkerOptions {
  intervalMs?: number;
  batch?: number;
}

/** The index worker with its defaults: the one `startServer` runs. */
export const indexBuildWorker: WorkerFactory = (ctx) => createIndexBuildWorker(ctx);

/** Builds the index worker. */
export function createIndexBuildWorker(ctx: WorkerContext, opts: IndexBuildWorkerOptions = {}): Worker {
  return createLeasedDrainWorker(ctx, {
    name: "indexes",
    lease: "indexes",
    intervalMs: opts.intervalMs ?? INDEX_BUILD_INTERVAL_MS,
    batch: opts.batch ?? INDEX_BUILD_BATCH,
    drain: (batch) => ctx.storage.stepFieldIndexes(batch),
  });
}
