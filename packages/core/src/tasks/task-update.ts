/**
 * @module tasks/task-update
 * What an update of a task record may do. Tasks are written by the service: a client that
 * could set `tag` back to `queued` or change `params` would re-run a finished bulk action
 * or run parameters nobody checked. The one change a client may make is to cancel an
 * active task: `{"tag": "failed"}` while it is `queued` or `running`. The task then fails
 * with a reason saying it was cancelled, `text_body` included, and the runner stops at its
 * next chunk (its commit meets the new version and reads the task as finished).
 */
import { badRequest, conflict, isRecordsError } from "../errors.js";
import { commit } from "../records/commit.js";
import { loadRecord } from "../records/guards.js";
import { changedFields, updateOf } from "../records/revise.js";
import type { EngineContext, UpdateResult } from "../records/types.js";
import { transition } from "../state/transitions.js";
import { formatTimestamp } from "../time.js";
import { afterFailure, taskState } from "./record.js";
import { ACTIVE_TASK_STATES, TASK_TYPE } from "./types.js";

/** The reason stored on a task cancelled through the API. */
const CANCELLED_REASON = "cancelled";

/**
 * Applies a client's `patch` to task `id`: cancels it when the patch is exactly
 * `{"tag": "failed"}` and the task is active. Any other patch is a 400 and a finished task
 * is a 409; in both cases nothing is written.
 *
 * @example
 * await updateTask(ctx, "demo", taskId, { tag: "failed" }); // text_body {"state":"failed",...,"error":"cancelled"}
 */
export async function updateTask(ctx: EngineContext, flock: string, id: string, patch: Record<string, unknown>): Promise<UpdateResult> {
  checkTaskPatch(patch);
  for (let attempt = 0; ; attempt++) {
    const before = await loadRecord(ctx, flock, TASK_TYPE, id);
    transition(before.state, "update"); // a deleted task is refused like any deleted record
    const state = taskState(before);
    if (state === undefined || !ACTIVE_TASK_STATES.includes(state)) {
      throw conflict("task finished", `task ${id} is ${JSON.stringify(before.data.tag)}; only a queued or running task can be cancelled`);
    }
    const next = afterFailure(before, CANCELLED_REASON, formatTimestamp(ctx.clock.now()));
    try {
      await commit(ctx, updateOf(before, next));
      return { record: next, changed: changedFields(before.data, next.data) };
    } catch (e) {
      // The runner committed a chunk meanwhile: cancel what it left (it may have finished).
      if (isRecordsError(e) && e.code === "conflict" && attempt < _RETRIES) continue;
      throw e;
    }
  }
}

/**
 * Throws the 400 of every task change but a cancel: any patch other than exactly
 * `{"tag": "failed"}`. JSON updates and file uploads both ask here, so both are refused alike.
 *
 * @example
 * checkTaskPatch({ tag: "queued" }) // throws bad_request "read-only task"
 */
export function checkTaskPatch(patch: Readonly<Record<string, unknown>>): void {
  const keys = Object.keys(patch);
  if (keys.length !== 1 || keys[0] !== "tag" || patch.tag !== "failed") {
    throw badRequest("read-only task", `a task is written by the service; the only change allowed is cancelling an active one with {"tag": "failed"}`);
  }
}

// --- internal ---

const _RETRIES = 5;
