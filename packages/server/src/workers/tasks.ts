/**
 * @module workers/tasks
 * The task worker: runs queued and interrupted tasks (bulk actions, recalcs, purges) one
 * chunk at a time, oldest task first. Each chunk is committed with the task's cursor, so
 * a task found `running` at start (the server was killed) resumes where it stopped. Between
 * chunks it yields to the event loop (`setImmediate`), so requests keep being answered
 * while a long task runs. Stopping lets the chunk in flight commit, then stops.
 *
 * Several processes on one database each run this worker. A process runs a task while it
 * holds the task's lease (`task:<flock>:<id>`, for `workers.leaseMs`, renewed while it
 * runs); the others skip that task. A process killed mid-task stops renewing, and after the
 * lease lapses another process resumes the task from its last committed chunk. Each chunk
 * commits with the task record's version check, so even two processes overlapping (one
 * stalled past its lease) cannot count a chunk twice.
 */
import {
  isRecordsError,
  failTask,
  withLease,
  findActiveTasks,
  runTaskChunk,
  systemAttribution,
  type ActiveTask,
  type StoredRecord,
  type TaskRegistry,
} from "@records-service/core";
import { createPollLoop } from "../runtime/poll-loop.js";
import { serverTaskRegistry } from "./task-kinds.js";
import { leaseOwnerGone, processLeaseOwner, type Worker, type WorkerContext, type WorkerFactory } from "../runtime/workers.js";

/** Options of `createTaskWorkerFactory`. */
export interface TaskWorkerOptions {
  /** The task kinds; default the server's (`serverTaskRegistry`: core's and the segments gateway's). */
  registry?: TaskRegistry;
  /** Beside the settings' `tasks` (idle poll, records per chunk, failures tolerated): tests change one for a single worker. */
  pollMs?: number;
  chunkSize?: number;
  maxFailures?: number;
  /** Awaited between chunks; default one turn of the event loop (`setImmediate`). */
  pause?: () => Promise<void>;
}

/**
 * A worker factory for `startServer({ workers })`.
 *
 * @example
 * startServer({ ..., workers: [createTaskWorkerFactory({ chunkSize: 200 })] });
 */
export function createTaskWorkerFactory(opts: TaskWorkerOptions = {}): WorkerFactory {
  return (ctx) => _worker(ctx, opts);
}

/** The task worker with its defaults: the one `startServer` runs. */
export const createTaskWorker: WorkerFactory = createTaskWorkerFactory();

/**
 * The lease a process holds while it runs task `id` of `flock`.
 *
 * @example
 * taskLeaseName("demo", "0123456789abcdef01234567") // "task:demo:0123456789abcdef01234567"
 */
export function taskLeaseName(flock: string, id: string): string {
  return `task:${flock}:${id}`;
}

// --- internal ---

const _nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function _worker(ctx: WorkerContext, opts: TaskWorkerOptions): Worker {
  const tuning = ctx.settings.tasks;
  const pollMs = opts.pollMs ?? tuning.pollMs;
  const chunkSize = opts.chunkSize ?? tuning.chunkSize;
  const maxFailures = opts.maxFailures ?? tuning.maxFailures;
  const leaseMs = ctx.settings.workers.leaseMs;
  const pause = opts.pause ?? _nextTurn;
  const runOptions = { chunkSize, registry: opts.registry ?? serverTaskRegistry };
  // A task is logged as its requester's (stored on it); one that names none, as the worker's.
  const engine = ctx.engine.withAttribution(systemAttribution("tasks"));
  const failures = new Map<string, number>();
  let stopped = false;

  /** Runs one task until it is done, the worker stops, a chunk fails ("retry later"), or its lease is lost. */
  const runOne = async (t: ActiveTask, lost: AbortSignal): Promise<"done" | "stopped" | "failed"> => {
    while (!stopped && !lost.aborted) {
      let result: { task: StoredRecord; done: boolean };
      try {
        result = await runTaskChunk(engine, t.flock, t.id, runOptions);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        // A database outage is not the task's fault: retried at the next poll, never counted.
        if (isRecordsError(e) && e.code === "unavailable") {
          ctx.out(`tasks: ${t.kind} ${t.id} (flock ${t.flock}): database unavailable, retrying later`);
          return "failed";
        }
        const n = (failures.get(t.id) ?? 0) + 1;
        failures.set(t.id, n);
        ctx.out(`tasks: ${t.kind} ${t.id} (flock ${t.flock}): a chunk failed (${n} of ${maxFailures}): ${why}`);
        if (n >= maxFailures) {
          failures.delete(t.id);
          await failTask(engine, t.flock, t.id, `stopped after ${n} failed attempts: ${why}`).catch(() => undefined);
        }
        return "failed";
      }
      if (result.done) {
        failures.delete(t.id);
        ctx.out(`tasks: ${t.kind} ${t.id} (flock ${t.flock}) ${String(result.task.data.tag)}: ${String(result.task.data.text_body)}`);
        return "done";
      }
      await pause();
    }
    return "stopped";
  };

  /** Runs `t` under its lease; "busy" when another process holds it. */
  const runLeased = async (t: ActiveTask): Promise<"done" | "stopped" | "failed" | "busy"> => {
    const held = await withLease(ctx.storage, taskLeaseName(t.flock, t.id), { ttlMs: leaseMs, clock: ctx.clock, owner: processLeaseOwner(), isGone: leaseOwnerGone }, (lost) => runOne(t, lost));
    return held.acquired ? held.value : "busy";
  };

  const drain = async () => {
    for (;;) {
      const active = await findActiveTasks(ctx.storage);
      if (active.length === 0 || stopped) return;
      let ran = false;
      for (const t of active) {
        const outcome = await runLeased(t);
        if (outcome === "busy") continue; // another process runs it
        ran = true;
        // After an unexpected failure, wait for the next poll rather than spin on it.
        if (outcome !== "done") return;
      }
      // Every active task is another process's: look again at the next poll.
      if (!ran) return;
    }
  };

  const loop = createPollLoop({
    pollMs,
    run: drain,
    onError: (e) => ctx.out(`tasks: looking for tasks failed: ${e instanceof Error ? e.message : String(e)}`),
  });

  return {
    name: "tasks",
    start() {
      loop.kick();
    },
    async stop() {
      stopped = true;
      await loop.halt();
    },
  };
}
