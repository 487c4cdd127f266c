/**
 * @module routes/triggers
 * `GET /:flock/triggers/`: the flock's configured triggers in the spec's shape, an object
 * keyed by trigger name whose values are arrays of trigger records. Read-only: triggers
 * come from the config file and the library API, never from requests. Webhook URLs carry
 * receivers' credentials (userinfo, tokens in the query): only administrator keys (flocks
 * `["*"]`, the operator's) see them whole; a flock's staff see them redacted.
 */
import { triggersView } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { isAdmin } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * The triggers route, for any core key with access to the flock.
 *
 * @example
 * const routes = triggerRoutes(engine, guards); route(app, "GET", "/api/v1/:flock/triggers", routes.getTriggers);
 * // GET /api/v1/demo/triggers/ → {"contact_created": [{"trigger": "contact_created", "action": "send-json-webhook", ...}]}
 */
export function triggerRoutes(engine: RouteEngine, guards: RouteGuards) {

  return {
    getTriggers: [describeGetTriggers(), guards.requireKey(), guards.requireFlock, getTriggers],
  } as const;

  function describeGetTriggers(): MiddlewareHandler {
    return documented({ tag: "events", summary: "The flock's configured triggers (read-only)", description: "Webhook URLs are shown in full to administrator keys only.", auth: "key", ok: { status: 200, description: "triggers by name", schema: "TriggerMap" }, errors: [403, 404] });
  }

  function getTriggers(c: Context<AppEnv, "/:flock/triggers">) {
    const flock = c.req.param("flock");
    return c.json(triggersView(engine.context.triggers(flock), flock, { revealUrls: isAdmin(c.get("user")) }));
  }
}
