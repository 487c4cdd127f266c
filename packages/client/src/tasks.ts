/**
 * @module tasks
 * Long tasks (bulk actions): the `core_event` record a task reports on, read until it is
 * complete or failed, with its progress counts on the way.
 */
import type { RecordsApi } from "./records.js";
import type { Schemas, TaskData } from "./types.js";

/** Where a task stands. */
export interface TaskProgress {
  state: TaskData["tag"];
  matched: number;
  changed: number;
  unchanged: number;
  errors: number;
  /** Why it failed (state failed). */
  error: string | null;
}

/** Options of `task.wait()`. */
export interface WaitOptions {
  /** Time between reads. Default 500 ms. */
  intervalMs?: number;
  /** Give up (rejecting) after this long. Default 10 minutes. */
  timeoutMs?: number;
  /** Called with each progress read. */
  onProgress?: (p: TaskProgress) => void;
}

/** A queued task. */
export interface Task {
  id: string;
  /** Reads the task's state once. */
  progress(): Promise<TaskProgress>;
  /** Reads until the task is complete or failed; resolves with the last progress (a failed task included). */
  wait(opts?: WaitOptions): Promise<TaskProgress>;
}

/**
 * The task whose record is `core_event/{id}` of the flock.
 *
 * @example
 * const task = createTask(coreEvents, (await request("POST", ".../bulk_action/", { json })).task_id, sleep);
 * await task.wait({ onProgress: (p) => console.log(p.state, p.changed) });
 */
export function createTask(records: RecordsApi<"core_event">, answer: Schemas["TaskId"], sleep: (ms: number) => Promise<void>): Task {
  const id = answer.task_id;
  const progress = async (): Promise<TaskProgress> => {
    const d = (await records.get(id)).data;
    return { state: d.tag, matched: d.matched ?? 0, changed: d.changed ?? 0, unchanged: d.unchanged ?? 0, errors: d.errors ?? 0, error: d.error ?? null };
  };
  return {
    id,
    progress,
    async wait(opts = {}) {
      const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
      for (;;) {
        const p = await progress();
        opts.onProgress?.(p);
        if (p.state === "complete" || p.state === "failed") return p;
        if (Date.now() > deadline) throw new Error(`task ${id} is still ${p.state} after ${opts.timeoutMs ?? 600_000} ms`);
        await sleep(opts.intervalMs ?? 500);
      }
    },
  };
}
