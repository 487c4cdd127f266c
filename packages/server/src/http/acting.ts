/**
 * @module http/acting
 * Who a request writes for: the authenticated account (a member account for a self-service
 * token) and the request's APPLICATION label, as core's `Attribution`; the engine acting
 * for them, through which every write route writes, so the change log records both; and
 * the tasks queued for them.
 */
import { createTask, type Attribution, type RecordEngine, type StoredRecord, type UserRow } from "@records-service/core";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import type { RouteEngine } from "./route-engine.js";

/**
 * The attribution of `c`'s writes. Read after authentication (before it, the actor is null).
 *
 * @example
 * requestAttribution(c) // { actor: "ada@example.org", application: "Acme/Sync/2" }
 */
function requestAttribution(c: Context<AppEnv>): Attribution {
  const user = c.get("user") as UserRow | undefined;
  return { actor: user?.username ?? null, application: c.get("application") ?? null };
}

/**
 * `engine`, acting for the caller of `c`.
 *
 * @example
 * await actingEngine(c, engine).update(flock, type, id, patch);
 */
export function actingEngine(c: Context<AppEnv>, engine: RouteEngine): RouteEngine {
  return engine.withAttribution(requestAttribution(c));
}

/** `createTask`'s parameters after the engine. */
type TaskArgs = Parameters<typeof createTask> extends [unknown, ...infer A] ? A : never;

/** Queues tasks for a request's caller. */
export interface TaskQueue {
  /** `createTask` on the engine acting for the caller of `c`: the task keeps who queued it. */
  queue(c: Context<AppEnv>, ...args: TaskArgs): Promise<StoredRecord>;
}

/**
 * The queue over `engine`: core's `createTask` commits through the engine's context, which
 * routes do not hold, so they queue through this.
 *
 * @example
 * const task = await createTaskQueue(engine).queue(c, "demo", "bulk_action", body, { description });
 */
export function createTaskQueue(engine: RecordEngine): TaskQueue {
  return { queue: (c, ...args) => createTask(engine.withAttribution(requestAttribution(c)), ...args) };
}
