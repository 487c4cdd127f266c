/**
 * @module routes/bulk
 * `POST /api/v1/{flock}/bulk_action/`: checks the body (core's `BulkActionBodySchema` and
 * `prepareBulkParams`: action, query, field, value, resource_type), queues a `bulk_action`
 * task and answers 202 `{"task_id"}`. The task worker runs it; its progress and result are
 * read as the `core_event` record `/api/v1/{flock}/core_event/{task_id}/`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyKind, readJsonObject, unsupportedBody } from "../http/body.js";
import type { AppEnv } from "../http/env.js";
import type { TaskQueue } from "../http/acting.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";

/**
 * The bulk action route (core keys only). Mount it before the generic record routes, so
 * `bulk_action` is not taken for a resource type.
 *
 * @example
 * const routes = bulkRoutes(tasks, guards); route(app, "POST", "/api/v1/:flock/bulk_action", routes.queueBulkAction);
 */
export function bulkRoutes(tasks: TaskQueue, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    queueBulkAction: [describeQueueBulkAction(), ...guard, queueBulkAction],
  } as const;

  function describeQueueBulkAction(): MiddlewareHandler {
    return documented({
      tag: "events",
      summary: "Queue a bulk action",
      description: "The task is the core_event record /api/v1/{flock}/core_event/{task_id}/: its tag is queued, running, complete or failed; text_body holds the result.",
      auth: "key",
      body: { schema: "BulkActionBody" },
      ok: { status: 202, description: "queued", schema: "TaskId" },
      errors: [403, 404],
    });
  }

  async function queueBulkAction(c: Context<AppEnv, "/:flock/bulk_action">) {
    const flock = c.req.param("flock");
    if (bodyKind(c) !== "json") throw unsupportedBody(c, 'a JSON object such as {"action": "add_tag", "query": {...}, "value": "..."}');
    const body = await readJsonObject(c);
    const description = typeof body.description === "string" ? body.description : null;
    // The task keeps who queued it: its writes are logged as theirs when the worker runs it.
    const task = await tasks.queue(c, flock, "bulk_action", body, { description });
    return c.json({ task_id: task.id }, 202);
  }
}
