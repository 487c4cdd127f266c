/**
 * @module routes/stats
 * Operator views: `GET /_stats/applications` lists requests per calling application (the
 * `APPLICATION` header), counted by every process on the database. Administrators only (`"*"` keys): the
 * names of other tenants' integrations are not a tenant's business.
 */
import { RecordsError } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { isAdmin } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import type { ApplicationCounts } from "../protection/application-counts.js";
import { documented } from "../openapi/describe.js";

/**
 * Routes `GET /_stats/applications` → `{since, total, unattributed, applications:
 * [{application, requests, last_seen}]}`; mount under `/api/v1` before `/:flock`.
 *
 * @example
 * const routes = statsRoutes(guards, counts); route(app, "GET", "/api/v1/_stats/applications", routes.getStatsApplications);
 */
export function statsRoutes(guards: RouteGuards, counts: ApplicationCounts) {

  return {
    getStatsApplications: [describeGetStatsApplications(), guards.requireKey(), getStatsApplications],
  } as const;

  function describeGetStatsApplications(): MiddlewareHandler {
    return documented({ tag: "admin", summary: "Requests counted per calling application (every process of the service)", auth: "admin", ok: { status: 200, description: "the counts", schema: "ApplicationStats" }, errors: [403] });
  }

  async function getStatsApplications(c: Context<AppEnv, "/_stats/applications">) {
    if (!isAdmin(c.get("user"))) {
      throw new RecordsError("forbidden", "forbidden", "only an administrator key (access to every flock) may read server statistics");
    }
    return c.json(await counts.snapshot());
  }
}
