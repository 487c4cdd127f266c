/**
 * @module tasks/purge-kind
 * The `purge_events` task: removes the flock's expired data events for good, a chunk at a
 * time, through `purgeExpiredEvents`. Unlike other kinds its chunk deletes as it decides
 * (deleting is not a record write the runner commits); that is safe because a purge is
 * idempotent: a chunk redone after a crash finds fewer expired events, never wrong ones.
 */
import { badRequest } from "../errors.js";
import { purgeExpiredEvents } from "../events/purge.js";
import type { TaskKind } from "./types.js";

/**
 * Removes every data event of the task's flock whose `expires_at` has passed (checked
 * against the time each chunk runs). It takes no parameters.
 *
 * @example
 * const registry = createTaskRegistry(); // holds purge_events
 * await runTask(engine, "demo", (await createTask(engine, "demo", "purge_events", {})).id);
 */
export const purgeEventsTask: TaskKind = {
  name: "purge_events",

  async prepare(_ctx, _flock, raw) {
    const keys = Object.keys(raw);
    if (keys.length > 0) throw badRequest("invalid task parameters", `purge_events takes no parameters (got ${keys.map((k) => JSON.stringify(k)).join(", ")})`);
    return {};
  },

  async step(ctx, task, limit) {
    const removed = await purgeExpiredEvents(ctx.storage, ctx.clock.now(), { flock: task.flock, limit });
    const done = removed < limit;
    return { writes: [], cursor: null, done, counts: { matched: removed, changed: removed, unchanged: 0, errors: 0 } };
  },
};
