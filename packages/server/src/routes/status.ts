/**
 * @module routes/status
 * Liveness and readiness probes, without authentication: `GET /ping` (the process
 * answers) and `GET /health` (the database answers too).
 */
import type { Storage } from "@records-service/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/env.js";

/**
 * Routes `GET /ping` → `{"message":"pong"}` and `GET /health` → `{"message":"ok"}`, or 503
 * `{error, error_detail}` when storage does not answer.
 *
 * @example
 * app.route("/api/v1", createStatusRoutes(storage));
 */
export function createStatusRoutes(storage: Storage): Hono<AppEnv> {
  const routes = new Hono<AppEnv>({ strict: false });
  routes.get("/ping", (c) => c.json({ message: "pong" }));
  routes.get("/health", async (c) => {
    try {
      await storage.getSetting("health_check");
    } catch {
      return c.json({ error: "unavailable", error_detail: "the database does not answer" }, 503);
    }
    return c.json({ message: "ok" });
  });
  return routes;
}
