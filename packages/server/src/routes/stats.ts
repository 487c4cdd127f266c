/**
 * @module routes/stats
 * Operator views: `GET /_stats/applications` lists requests per calling application (the
 * `APPLICATION` header), counted by every process on the database. Administrators only (`"*"` keys): the
 * names of other tenants' integrations are not a tenant's business.
 */
import { RecordsError, type Clock, type Storage } from "@records-service/core";
import { Hono } from "hono";
import { isAdmin } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import { createRequireKey } from "../middleware/auth.js";
import type { ApplicationCounts } from "../protection/application-counts.js";
import { documented } from "../openapi/describe.js";

/**
 * Routes `GET /_stats/applications` → `{since, total, unattributed, applications:
 * [{application, requests, last_seen}]}`; mount under `/api/v1` before `/:flock`.
 *
 * @example
 * app.route("/api/v1", createStatsRoutes(storage, clock, counts));
 */
export function createStatsRoutes(storage: Storage, clock: Clock, counts: ApplicationCounts): Hono<AppEnv> {
  const routes = new Hono<AppEnv>({ strict: false });
  routes.get(
    "/_stats/applications",
    documented({ tag: "admin", summary: "Requests counted per calling application (every process of the service)", auth: "admin", ok: { status: 200, description: "the counts", schema: "ApplicationStats" }, errors: [403] }),
    createRequireKey(storage, clock),
    async (c) => {
    if (!isAdmin(c.get("user"))) {
      throw new RecordsError("forbidden", "forbidden", "only an administrator key (access to every flock) may read server statistics");
    }
    return c.json(await counts.snapshot());
  });
  return routes;
}
