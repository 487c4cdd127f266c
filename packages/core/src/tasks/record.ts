/**
 * @module tasks/record
 * The task as a `core_event` record: its data fields, the progress and result text in
 * `text_body`, and the pure state changes (queued → running → complete | failed).
 */
import type { Attribution } from "../model/attribution.js";
import { derive } from "../records/revise.js";
import type { StoredRecord } from "../model/record.js";
import { parseTimestamp } from "../time.js";
import { TASK_TYPE, type TaskCounts, type TaskState, type TaskView } from "./types.js";

/** At most this many per-record error lines are kept on a task (the count has them all). */
const MAX_ERROR_DETAILS = 20;

/** Counts of a task that has not started. */
const ZERO_COUNTS: Readonly<TaskCounts> = { matched: 0, changed: 0, unchanged: 0, errors: 0 };

/**
 * The data of a new, queued task. `text_body` is JSON text (see `taskSummary`).
 *
 * @example
 * newTaskData("bulk_action", { action: "add_tag", ... }, "tag the gala guests")
 */
export function newTaskData(kind: string, params: Record<string, unknown>, description: string | null): Record<string, unknown> {
  const data: Record<string, unknown> = {
    task: kind,
    // `name` gives the record its display value in lists.
    name: description ?? kind,
    tag: "queued",
    description,
    params,
    cursor: null,
    ...ZERO_COUNTS,
    error_details: null,
    error: null,
    started_at: null,
    finished_at: null,
  };
  data.text_body = taskSummary(data);
  return data;
}

/**
 * The `text_body` of a task: JSON text with its state and counts, plus `error_details`
 * once finished with record errors and `error` when it failed.
 *
 * @example
 * taskSummary(data) // '{"state":"running","matched":1500,"changed":1490,"unchanged":10,"errors":0}'
 */
function taskSummary(data: Record<string, unknown>): string {
  const counts = countsOf(data);
  const summary: Record<string, unknown> = { state: data.tag, ...counts };
  const finished = data.tag === "complete" || data.tag === "failed";
  const details = Array.isArray(data.error_details) ? data.error_details : [];
  if (finished && details.length > 0) summary.error_details = details;
  if (data.tag === "failed") summary.error = data.error ?? "failed";
  return JSON.stringify(summary);
}

/** The counters stored on a task record (0 for any that is missing or not a number). */
function countsOf(data: Record<string, unknown>): TaskCounts {
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return { matched: n(data.matched), changed: n(data.changed), unchanged: n(data.unchanged), errors: n(data.errors) };
}

/** The task state of a record (`tag`), or undefined when it is not a task state. */
export function taskState(record: StoredRecord): TaskState | undefined {
  const tag = record.data.tag;
  return tag === "queued" || tag === "running" || tag === "complete" || tag === "failed" ? tag : undefined;
}

/**
 * The data fields that say who queued a task (`requested_by`, `application`): its chunks
 * are logged as theirs when they run, in whichever process.
 *
 * @example
 * requesterFields({ actor: "ada", application: "Acme/Sync/2" }) // { requested_by: "ada", application: "Acme/Sync/2" }
 */
export function requesterFields(attribution: Attribution | undefined): Record<string, unknown> {
  return attribution ? { requested_by: attribution.actor, application: attribution.application } : {};
}

/** Who queued the task (`requesterFields`), or undefined when it does not say (an older task, or one queued without attribution). */
export function taskAttribution(task: StoredRecord): Attribution | undefined {
  const { requested_by: actor, application } = task.data;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  if (!("requested_by" in task.data) && !("application" in task.data)) return undefined;
  if (text(actor) === null && text(application) === null) return undefined;
  return { actor: text(actor), application: text(application) };
}

/** The task as its kind reads it. */
export function taskView(record: StoredRecord): TaskView {
  const d = record.data;
  const params = typeof d.params === "object" && d.params !== null && !Array.isArray(d.params) ? (d.params as Record<string, unknown>) : {};
  return {
    id: record.id,
    flock: record.flock,
    kind: typeof d.task === "string" ? d.task : "",
    params,
    cursor: typeof d.cursor === "string" ? d.cursor : null,
    counts: countsOf(d),
    requestedAt: parseTimestamp(record.created) ?? new Date(0),
  };
}

/**
 * The task's next version after a chunk: counts added, cursor moved, `running` (with
 * `started_at`) or, after the last chunk, `complete` (with `finished_at`).
 */
export function afterChunk(
  task: StoredRecord,
  step: { cursor: string | null; done: boolean; counts: TaskCounts; errors?: string[]; params?: Record<string, unknown> },
  now: string,
): StoredRecord {
  const before = countsOf(task.data);
  const kept = Array.isArray(task.data.error_details) ? (task.data.error_details as string[]) : [];
  const details = [...kept, ...(step.errors ?? [])].slice(0, MAX_ERROR_DETAILS);
  const data: Record<string, unknown> = {
    ...task.data,
    ...(step.params ? { params: step.params } : {}),
    tag: step.done ? "complete" : "running",
    cursor: step.cursor,
    matched: before.matched + step.counts.matched,
    changed: before.changed + step.counts.changed,
    unchanged: before.unchanged + step.counts.unchanged,
    errors: before.errors + step.counts.errors,
    error_details: details.length ? details : null,
    started_at: task.data.started_at ?? now,
    finished_at: step.done ? now : null,
  };
  return _next(task, data, now);
}

/** The task's next version when it fails: `failed`, the reason, `finished_at`. */
export function afterFailure(task: StoredRecord, reason: string, now: string): StoredRecord {
  const data: Record<string, unknown> = {
    ...task.data,
    tag: "failed",
    error: reason,
    started_at: task.data.started_at ?? now,
    finished_at: now,
  };
  return _next(task, data, now);
}

// --- internal ---

function _next(task: StoredRecord, data: Record<string, unknown>, now: string): StoredRecord {
  data.text_body = taskSummary(data);
  const derived = derive(TASK_TYPE, data);
  return { ...task, data: derived.data, displayValue: derived.displayValue, lastUpdated: now, version: task.version + 1 };
}
