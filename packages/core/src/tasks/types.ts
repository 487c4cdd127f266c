/**
 * @module tasks/types
 * The shapes of the task mechanism: a task kind (what a long operation does, one chunk at
 * a time), a task as read from its `core_event` record, and the result of one chunk.
 */
import type { EngineContext } from "../records/types.js";
import type { RecordWrite, StoredFile } from "../storage/types.js";

/** The resource type of task records. */
export const TASK_TYPE = "core_event";

/** Where a task stands (`tag` of its record): the contract's four states. */
export type TaskState = "queued" | "running" | "complete" | "failed";

/**
 * Most record data one chunk of a task reads (`Storage.scanRecords`' `maxDataLength`): a
 * chunk ends early at it, so a chunk of large records (up to `MAX_RECORD_DATA_LENGTH` each)
 * is never read, decided and written in one synchronous step of hundreds of megabytes.
 */
export const TASK_CHUNK_DATA_LENGTH = 4 * 1_048_576;

/** The states a worker picks a task up in. */
export const ACTIVE_TASK_STATES: readonly TaskState[] = ["queued", "running"];

/** The running totals of a task, kept on its record and reported in `text_body`. */
export interface TaskCounts {
  /** Records the task visited (the matches of its query). */
  matched: number;
  /** Records written. */
  changed: number;
  /** Records visited that needed no change. */
  unchanged: number;
  /** Records the task could not change (see `error_details`). */
  errors: number;
}

/** A task as its kind sees it: read from the `core_event` record. */
export interface TaskView {
  id: string;
  flock: string;
  kind: string;
  /** The kind's parameters as `prepare` normalized them. */
  params: Record<string, unknown>;
  /** Where the walk resumes (`Storage.scanRecords`); null before the first chunk. */
  cursor: string | null;
  counts: TaskCounts;
  /** When the task was created: the instant its query's smart dates are resolved against. */
  requestedAt: Date;
}

/** What one chunk decided: the writes, where to go on, and what it counted. */
export interface TaskStep {
  /** Record writes (updates carry `before`, so the commit step sees what changed). */
  writes: RecordWrite[];
  /** Where the next chunk starts. */
  cursor: string | null;
  /** True when this chunk is the last one. */
  done: boolean;
  /** Added to the task's totals. */
  counts: TaskCounts;
  /** One line per record that could not be changed (a few are kept on the task). */
  errors?: string[];
  /**
   * Files stored with the chunk's writes (a report a task produced, attached to a record by
   * one of `writes`), in the same change set: the file exists exactly when its write does.
   */
  files?: StoredFile[];
}

/**
 * One kind of long operation (`bulk_action`, `recalc`, `purge_events`, ...). A kind decides;
 * the task runner commits each chunk's writes together with the task's new cursor and
 * counters, so a chunk is either wholly done (and never redone) or not at all.
 */
export interface TaskKind {
  /** The `task` field of its records. */
  readonly name: string;
  /**
   * Checks the parameters before anything is queued and returns them normalized, as stored
   * on the task. Throws `RecordsError("bad_request")` naming the problem. The stored
   * parameters are not checked again: only the service writes them (a client may only
   * cancel a task, see `tasks/task-update`), and `step` fails the task on a `bad_request`.
   */
  prepare(ctx: EngineContext, flock: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * Decides one chunk of at most about `limit` records, starting at `task.cursor`. It only
   * reads; the runner commits. It may be called again for the same cursor after a version
   * conflict, so it must decide from what it reads, not from memory of earlier calls.
   */
  step(ctx: EngineContext, task: TaskView, limit: number): Promise<TaskStep>;
}
