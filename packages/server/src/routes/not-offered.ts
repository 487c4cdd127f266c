/**
 * @module routes/not-offered
 * The hosted operations this service decides not to offer (spec v2-gateway, P3): user
 * policies, partner sync, the reporting warehouse, the help-centre search and the website
 * pages. Each answers a documented 501 in the v2 error shape (`type: "not_implemented"`)
 * after the path's own auth checks, so a stranger learns nothing and a client learns that
 * the path is known but not offered, never a 404 "no such path". Mount at the root.
 */
import { notFound, RecordsError, type RecordEngine } from "@records-service/core";
import type { Context } from "hono";
import { Hono } from "hono";
import { isAdmin } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import { createRequireFlock, createRequireKey } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";

/**
 * The partners of the hosted sync path (spec v2-gateway P3; the hosted list names its
 * accounting, ticketing, email-marketing and learning integrations). Another partner is a 404.
 */
export const SYNC_PARTNERS: readonly string[] = ["xero", "eventbrite", "mailchimp", "moodle"];

/**
 * Routes the P3 501s: `/internal/v2/{flock}/user_policy/...`, `/internal/v2/{flock}/sync/...`,
 * `/internal/v2/system/build/warehouse/{facet}`, `/search/v2/{flock}/help` and
 * `/public/v2/{flock}/web`; mount with `app.route("/", ...)`.
 *
 * @example
 * app.route("/", createNotOfferedRoutes(engine));
 */
export function createNotOfferedRoutes(engine: RecordEngine): Hono<AppEnv> {
  const { storage, clock } = engine.context;
  const routes = new Hono<AppEnv>({ strict: false });
  const guard = [createRequireKey(storage, clock), createRequireFlock(storage)] as const;
  const policies = "this service's access model is roles per flock (core keys, member tokens), not composable policies and user groups";

  routes.post("/internal/v2/:flock/user_policy/standard", _doc("Apply standard user policies (not offered)", "key"), ...guard, (c) => {
      throw notOffered(c, policies);
    });
  for (const kind of ["groups", "leaders", "single"]) {
    routes.post(`/internal/v2/:flock/user_policy/:uid/${kind}`, _doc(`Set a user's ${kind} policy (not offered)`, "key"), ...guard, (c) => {
      throw notOffered(c, policies);
    });
  }

  routes.post("/internal/v2/:flock/sync/:partner/:action/:data_type", _doc("Sync with a partner service (not offered)", "key", [404]), ...guard, (c) => {
    const partner = c.req.param("partner")!;
    if (!SYNC_PARTNERS.includes(partner)) throw notFound("unknown partner", `there is no sync partner ${JSON.stringify(partner.slice(0, 60))}; the hosted service names ${SYNC_PARTNERS.join(", ")}`);
    throw notOffered(c, `partner integrations (accounting, payments, ticketing and email-marketing services) are not part of this service: no sync with ${partner}`);
  });

  routes.post("/internal/v2/system/build/warehouse/:facet", _doc("Build the reporting warehouse (not offered)", "admin"), createRequireKey(storage, clock), (c) => {
    if (!isAdmin(c.get("user"))) throw new RecordsError("forbidden", "forbidden", "only an administrator key (access to every flock) may build the warehouse");
    throw notOffered(c, "the hosted service's reporting warehouse is not offered: this service's aggregates are live (groupby, distinct)");
  });

  routes.get(
    "/search/v2/:flock/help",
    _doc("Search the hosted service's help centre (not offered)", "key", [], [queryParam("q", "the text to look for"), queryParam("limit", "at most this many"), queryParam("include_text", "accepted"), queryParam("include_html", "accepted")]),
    ...guard,
    (c) => {
      throw notOffered(c, "the hosted service's help-centre search is not offered: it searches the vendor's help pages, not flock data");
    },
  );

  routes.get("/public/v2/:flock/web", _doc("The hosted service's website pages (not offered)", "none", [404], [queryParam("path", "the page path"), queryParam("user_query", "accepted")]), async (c) => {
    const flock = c.req.param("flock")!;
    if (!(await storage.getFlock(flock))) throw notFound("unknown flock", `there is no flock ${JSON.stringify(flock.slice(0, 60))}`);
    throw notOffered(c, "website pages (page configs, index pages, member-only pages) are not offered: no page records exist here");
  });
  return routes;
}

// --- internal ---

function _doc(summary: string, auth: "key" | "admin" | "none", errors: number[] = [], query?: ReturnType<typeof queryParam>[]) {
  const refusals = auth === "none" ? [] : auth === "admin" ? [403] : [403, 404];
  return documented({
    tag: "not-offered",
    summary,
    description: "Known from the hosted description and deliberately not offered (docs/hosted-compat.md, \"Not served, and why\"): 501 with type not_implemented, after the path's auth checks.",
    auth,
    ...(query ? { query } : {}),
    errors: [...new Set([...refusals, ...errors, 501])],
  });
}

/** The 501 (thrown) of a hosted operation deliberately not offered (docs/hosted-compat.md, "Not served, and why"). */
export function notOffered(c: Context<AppEnv>, why: string): RecordsError {
  return new RecordsError("not_implemented", "not offered by this service", `${c.req.method} ${c.req.path}: ${why}`);
}
