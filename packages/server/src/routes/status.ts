/**
 * @module routes/status
 * Liveness and readiness probes, without authentication: `GET /ping` (the process
 * answers) and `GET /health` (the database answers too).
 */
import type { Storage } from "@records-service/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { documented } from "../openapi/describe.js";

/**
 * Routes `GET /ping` → `{"message":"pong"}` and `GET /health` → `{"message":"ok"}`, or 503
 * `{error, error_detail}` when storage does not answer.
 *
 * @example
 * app.route("/api/v1", createStatusRoutes(storage));
 */
export function createStatusRoutes(storage: Storage): Hono<AppEnv> {
  const routes = new Hono<AppEnv>({ strict: false });
  routes.get(
    "/ping",
    documented({ tag: "status", summary: "Liveness", auth: "none", ok: { status: 200, description: "{\"message\": \"pong\"}", schema: "Message" }, errors: [] }),
    (c) => c.json({ message: "pong" }));
  routes.get("/health", documented({ tag: "status", summary: "Health: the database answers", auth: "none", ok: { status: 200, description: "{\"message\": \"ok\"}", schema: "Message" }, errors: [] }), async (c) => {
    try {
      await storage.getSetting("health_check");
    } catch {
      return c.json({ error: "unavailable", error_detail: "the database does not answer" }, 503);
    }
    return c.json({ message: "ok" });
  });
  return routes;
}
