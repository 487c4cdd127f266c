/**
 * @module tasks/run
 * The task mechanism, usable in-process and by the server's worker: queue a task as a
 * `core_event` record, run it one chunk at a time, find the tasks left to run. Each chunk
 * is ONE change set holding the records it changes AND the task's new cursor and counts,
 * committed through the engine's commit step (so the changes emit their events): a chunk
 * is either wholly done and never redone, or not done at all. That is what lets a task
 * interrupted by a crash resume at its cursor and finish once.
 */
import { isRecordsError, notFound } from "../errors.js";
import { attributedContext } from "../records/attribution.js";
import { commit } from "../records/commit.js";
import { requireFlockAndType } from "../records/guards.js";
import { derive, updateWrite } from "../records/revise.js";
import type { EngineContext, RecordEngine } from "../records/types.js";
import type { RecordWrite } from "../model/change-set.js";
import type { StoredFile } from "../model/file.js";
import type { StoredRecord } from "../model/record.js";
import type { Storage } from "../storage/storage.js";
import { formatTimestamp } from "../time.js";
import { afterChunk, afterFailure, newTaskData, requesterFields, taskAttribution, taskState, taskView } from "./record.js";
import { createTaskRegistry, type TaskRegistry } from "./registry.js";
import { ACTIVE_TASK_STATES, TASK_TYPE } from "./types.js";

/** Records decided and committed per chunk by default. */
export const TASK_CHUNK_SIZE = 250;

/** How often a chunk is decided again after a version conflict with another writer. */
const TASK_CONFLICT_RETRIES = 5;

/** At most this many active tasks are picked up per flock and look (the rest on the next look). */
const MAX_ACTIVE_PER_FLOCK = 100;

/** Options shared by the task functions. */
export interface TaskOptions {
  /** The kinds; default a registry of `DEFAULT_TASK_KINDS`. */
  registry?: TaskRegistry;
}

/** Options of `runTaskChunk` and `runTask`. */
export interface TaskRunOptions extends TaskOptions {
  /** Records per chunk; default `TASK_CHUNK_SIZE`. */
  chunkSize?: number;
}

/** What a chunk left behind. */
export interface TaskChunkResult {
  /** The task record after the chunk. */
  task: StoredRecord;
  /** True when the task no longer needs running (complete, failed, or not a task state). */
  done: boolean;
}

/** A task waiting to run or interrupted while running. */
export interface ActiveTask {
  flock: string;
  id: string;
  kind: string;
  created: string;
}

/**
 * Queues a task of `kind` in `flock`: checks `params` (400 naming the problem, nothing
 * stored) and stores a `core_event` record with `tag` `queued`. Returns the record; its id
 * is the task id.
 *
 * @example
 * const task = await createTask(engine, "demo", "bulk_action", { action: "add_tag", query: { tags: "gala" }, value: "thanked" });
 */
export async function createTask(
  engine: Pick<RecordEngine, "context">,
  flock: string,
  kind: string,
  params: Record<string, unknown>,
  opts: TaskOptions & { description?: string | null } = {},
): Promise<StoredRecord> {
  const ctx = engine.context;
  await requireFlockAndType(ctx, flock, TASK_TYPE);
  const prepared = await _registry(opts).require(kind).prepare(ctx, flock, params);
  const now = formatTimestamp(ctx.clock.now());
  const record: StoredRecord = {
    id: ctx.ids(),
    flock,
    type: TASK_TYPE,
    state: "updated",
    ...derive(TASK_TYPE, { ...newTaskData(kind, prepared, opts.description ?? null), ...requesterFields(ctx.attribution) }),
    created: now,
    lastUpdated: now,
    version: 1,
  };
  await commit(ctx, { records: [{ kind: "insert", record }] });
  return record;
}

/**
 * Runs the next chunk of task `id`: decides it with the task's kind and commits the
 * changed records with the task's new cursor, counts and state in one change set. A
 * version conflict (another writer changed a record or the task) decides the chunk again
 * from fresh reads, up to `TASK_CONFLICT_RETRIES` times. A kind's `bad_request` or
 * `not_found` (e.g. a stored query that no longer parses) fails the task; other errors
 * are thrown and the task stays as it was.
 *
 * @example
 * let r; do { r = await runTaskChunk(engine, "demo", task.id); } while (!r.done);
 */
export async function runTaskChunk(engine: RecordEngine, flock: string, id: string, opts: TaskRunOptions = {}): Promise<TaskChunkResult> {
  const registry = _registry(opts);
  const size = Math.max(1, Math.floor(opts.chunkSize ?? TASK_CHUNK_SIZE));
  for (let attempt = 0; ; attempt++) {
    const task = await engine.context.storage.getRecord(flock, TASK_TYPE, id);
    if (!task) throw notFound("task not found", `no task ${id} in flock '${flock}'`);
    const ctx = _actingFor(engine.context, task);
    const state = taskState(task);
    if (state === undefined || !ACTIVE_TASK_STATES.includes(state)) return { task, done: true };
    const view = taskView(task);
    const kind = registry.get(view.kind);
    const now = formatTimestamp(ctx.clock.now());
    let next: StoredRecord;
    let writes: RecordWrite[] = [];
    let files: StoredFile[] = [];
    if (!kind) {
      next = afterFailure(task, `${JSON.stringify(view.kind)} is not a task kind; known: ${registry.names().join(", ")}`, now);
    } else {
      try {
        const step = await kind.step(ctx, view, size);
        writes = step.writes;
        files = step.files ?? [];
        next = afterChunk(task, step, now);
      } catch (e) {
        if (!isRecordsError(e) || (e.code !== "bad_request" && e.code !== "not_found")) throw e;
        next = afterFailure(task, e.detail, now);
      }
    }
    try {
      const records: RecordWrite[] = [...writes, updateWrite(task, next)];
      await commit(ctx, files.length > 0 ? { records, files } : { records });
      return { task: next, done: taskState(next) !== "running" };
    } catch (e) {
      if (isRecordsError(e) && e.code === "conflict" && attempt < TASK_CONFLICT_RETRIES) continue;
      throw e;
    }
  }
}

/**
 * Runs task `id` to its end, chunk after chunk, awaiting `pause` between chunks (e.g. a
 * turn of the event loop, so a server keeps answering requests). Returns the final record.
 *
 * @example
 * const done = await runTask(engine, "demo", task.id); // data.tag "complete"
 */
export async function runTask(
  engine: RecordEngine,
  flock: string,
  id: string,
  opts: TaskRunOptions & { pause?: () => Promise<void> } = {},
): Promise<StoredRecord> {
  for (;;) {
    const { task, done } = await runTaskChunk(engine, flock, id, opts);
    if (done) return task;
    if (opts.pause) await opts.pause();
  }
}

/**
 * Marks task `id` failed with `reason` (e.g. after a worker's repeated errors). A task that
 * has already finished is left alone.
 */
export async function failTask(engine: RecordEngine, flock: string, id: string, reason: string): Promise<StoredRecord> {
  for (let attempt = 0; ; attempt++) {
    const task = await engine.context.storage.getRecord(flock, TASK_TYPE, id);
    if (!task) throw notFound("task not found", `no task ${id} in flock '${flock}'`);
    const ctx = _actingFor(engine.context, task);
    const state = taskState(task);
    if (state === undefined || !ACTIVE_TASK_STATES.includes(state)) return task;
    const next = afterFailure(task, reason, formatTimestamp(ctx.clock.now()));
    try {
      await commit(ctx, { records: [updateWrite(task, next)] });
      return next;
    } catch (e) {
      if (isRecordsError(e) && e.code === "conflict" && attempt < TASK_CONFLICT_RETRIES) continue;
      throw e;
    }
  }
}

/**
 * The tasks of every flock whose `tag` is `queued` or `running` (a `running` one was
 * interrupted, or is being run), oldest first (up to `MAX_ACTIVE_PER_FLOCK` per flock).
 * Records without a `task` kind are left out.
 */
export async function findActiveTasks(storage: Storage): Promise<ActiveTask[]> {
  const found: ActiveTask[] = [];
  for (const { identifier: flock } of await storage.listFlocks()) {
    // Active tasks are few: one indexed lookup on `tag` per flock.
    const page = await storage.listRecords(flock, TASK_TYPE, { ..._ACTIVE_QUERY, page: 1, pageSize: MAX_ACTIVE_PER_FLOCK });
    for (const r of page.records) {
      if (typeof r.data.task === "string") found.push({ flock, id: r.id, kind: r.data.task, created: r.created });
    }
  }
  return found.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// --- internal ---

/** A task's writes are logged as made by whoever queued it; else as the runner's (e.g. `system:tasks`). */
function _actingFor(ctx: EngineContext, task: StoredRecord): EngineContext {
  const requester = taskAttribution(task);
  return requester ? attributedContext(ctx, requester) : ctx;
}

const _ACTIVE_QUERY = {
  filters: [{ field: "tag", meta: false, op: "or" as const, values: ACTIVE_TASK_STATES.map((text) => ({ text })) }],
  mode: "AND" as const,
  states: ["updated" as const],
};

let _default: TaskRegistry | undefined;

function _registry(opts: TaskOptions): TaskRegistry {
  if (opts.registry) return opts.registry;
  _default ??= createTaskRegistry();
  return _default;
}
