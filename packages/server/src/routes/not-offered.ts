/**
 * @module routes/not-offered
 * The hosted operations this service decides not to offer (spec v2-gateway, P3): user
 * policies, partner sync, the reporting warehouse, the help-centre search and the website
 * pages. Each answers a documented 501 in the v2 error shape (`type: "not_implemented"`)
 * after the path's own auth checks, so a stranger learns nothing and a client learns that
 * the path is known but not offered, never a 404 "no such path".
 */
import { notFound, RecordsError, type FlockStore } from "@records-service/core";
import type { Context } from "hono";
import { isAdmin } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";

/**
 * The partners of the hosted sync path (spec v2-gateway P3; the hosted list names its
 * accounting, ticketing, email-marketing and learning integrations). Another partner is a 404.
 */
export const SYNC_PARTNERS: readonly string[] = ["xero", "eventbrite", "mailchimp", "moodle"];

/**
 * The P3 501s: `/internal/v2/{flock}/user_policy/...`, `/internal/v2/{flock}/sync/...`,
 * `/internal/v2/system/build/warehouse/{facet}`, `/search/v2/{flock}/help` and
 * `/public/v2/{flock}/web`, each after its path's own auth checks.
 *
 * @example
 * const refused = notOfferedRoutes(guards, flocks); route(app, "GET", "/public/v2/:flock/web", refused.refuseWebsitePages);
 */
export function notOfferedRoutes(guards: RouteGuards, flocks: FlockStore) {
  const requireKey = guards.requireKey();
  const guard = [requireKey, guards.requireFlock] as const;
  const policies = "this service's access model is roles per flock (core keys, member tokens), not composable policies and user groups";
  const refusePolicies = (c: Context<AppEnv>) => {
    throw notOffered(c, policies);
  };

  return {
    refuseStandardPolicies: [_doc("Apply standard user policies (not offered)", "key"), ...guard, refusePolicies],
    refuseGroupsPolicy: [_doc("Set a user's groups policy (not offered)", "key"), ...guard, refusePolicies],
    refuseLeadersPolicy: [_doc("Set a user's leaders policy (not offered)", "key"), ...guard, refusePolicies],
    refuseSinglePolicy: [_doc("Set a user's single policy (not offered)", "key"), ...guard, refusePolicies],
    refusePartnerSync: [_doc("Sync with a partner service (not offered)", "key", [404]), ...guard, refusePartnerSync],
    refuseWarehouseBuild: [_doc("Build the reporting warehouse (not offered)", "admin"), requireKey, refuseWarehouseBuild],
    refuseHelpSearch: [
      _doc("Search the hosted service's help centre (not offered)", "key", [], [queryParam("q", "the text to look for"), queryParam("limit", "at most this many"), queryParam("include_text", "accepted"), queryParam("include_html", "accepted")]),
      ...guard,
      refuseHelpSearch,
    ],
    refuseWebsitePages: [_doc("The hosted service's website pages (not offered)", "none", [404], [queryParam("path", "the page path"), queryParam("user_query", "accepted")]), refuseWebsitePages],
  } as const;

  function refusePartnerSync(c: Context<AppEnv, "/internal/v2/:flock/sync/:partner/:action/:data_type">) {
    const partner = c.req.param("partner");
    if (!SYNC_PARTNERS.includes(partner)) throw notFound("unknown partner", `there is no sync partner ${JSON.stringify(partner.slice(0, 60))}; the hosted service names ${SYNC_PARTNERS.join(", ")}`);
    throw notOffered(c, `partner integrations (accounting, payments, ticketing and email-marketing services) are not part of this service: no sync with ${partner}`);
  }

  function refuseWarehouseBuild(c: Context<AppEnv, "/internal/v2/system/build/warehouse/:facet">) {
    if (!isAdmin(c.get("user"))) throw new RecordsError("forbidden", "forbidden", "only an administrator key (access to every flock) may build the warehouse");
    throw notOffered(c, "the hosted service's reporting warehouse is not offered: this service's aggregates are live (groupby, distinct)");
  }

  function refuseHelpSearch(c: Context<AppEnv, "/search/v2/:flock/help">) {
    throw notOffered(c, "the hosted service's help-centre search is not offered: it searches the vendor's help pages, not flock data");
  }

  async function refuseWebsitePages(c: Context<AppEnv, "/public/v2/:flock/web">) {
    const flock = c.req.param("flock");
    if (!(await flocks.getFlock(flock))) throw notFound("unknown flock", `there is no flock ${JSON.stringify(flock.slice(0, 60))}`);
    throw notOffered(c, "website pages (page configs, index pages, member-only pages) are not offered: no page records exist here");
  }
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
