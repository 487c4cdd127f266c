/**
 * @module runtime/default-workers
 * The workers `startServer` runs when the caller names none.
 */
import { backupWorker } from "../workers/backup.js";
import { createOutboxWorker } from "../workers/outbox.js";
import { schedulerWorker } from "../workers/scheduler.js";
import { indexBuildWorker } from "../workers/index-build.js";
import { searchMergeWorker } from "../workers/search-merge.js";
import { createTaskWorker } from "../workers/tasks.js";
import type { WorkerFactory } from "./workers.js";

/**
 * Started in this order, stopped in reverse: the outbox runs the actions events queue; the
 * scheduler emits the date-relative events (and stops first, so it never queues into a
 * stopped outbox). The task worker runs bulk actions and other long tasks, whose changes
 * queue jobs too, so it also stops before the outbox. The search worker merges the search
 * index's queue and the index worker builds or removes value index entries (neither depends
 * on another). The backup worker (only with a `backup` config
 * section) copies the file on its own schedule and stops first.
 */
export const DEFAULT_WORKERS: readonly WorkerFactory[] = [createOutboxWorker, schedulerWorker, createTaskWorker, searchMergeWorker, indexBuildWorker, backupWorker];
