/**
 * @module routes/discovery
 * What a key can see: `GET /` lists its flocks, `GET /:flock` the resource types held in
 * one flock (and so checks access to it); with `?include_empty=true`, every type the flock
 * serves, those without records at count 0 (a first run's console lists them all).
 */
import { badRequest, type FlockStore } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { visibleFlocks } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * Routes `GET /` → `{flocks: [{identifier, name}]}` and `GET /:flock` →
 * `{resource_type: [{name, count, last_modified}]}`. The engine names the types a flock
 * serves, for `include_empty`.
 *
 * @example
 * const routes = discoveryRoutes(engine, guards, flocks); route(app, "GET", "/api/v1/", routes.getRoot);
 */
export function discoveryRoutes(engine: RouteEngine, guards: RouteGuards, flocks: FlockStore) {
  const requireKey = guards.requireKey();
  const requireFlock = guards.requireFlock;
  const { typesOf } = engine.context;

  return {
    getRoot: [describeGetRoot(), requireKey, getRoot],
    getRootRoute: [describeGetRootRoute(), requireKey, requireFlock, getRootRoute],
  } as const;

  function describeGetRoot(): MiddlewareHandler {
    return documented({ tag: "discovery", summary: "The flocks this key may open", auth: "key", ok: { status: 200, description: "the flocks", schema: "FlockList" }, errors: [403] });
  }

  async function getRoot(c: Context<AppEnv, "/">) {
    const visible = await visibleFlocks(flocks, c.get("user"));
    return c.json({ flocks: visible.map((f) => ({ identifier: f.identifier, name: f.name })) });
  }

  function describeGetRootRoute(): MiddlewareHandler {
    return documented({
      tag: "discovery",
      summary: "The flock's resource types with counts",
      description: "Types holding records; with include_empty=true every type the flock serves, those without records at count 0 and last_modified null.",
      auth: "key",
      query: [queryParam("include_empty", "true: list every served type, empty ones included (default false)", { type: "string", enum: ["true", "false"] })],
      ok: { status: 200, description: "the resource types", schema: "TypeList" },
      errors: [400, 403, 404],
    });
  }

  async function getRootRoute(c: Context<AppEnv, "/:flock">) {
    const flock = c.req.param("flock");
    const includeEmpty = _flag(c.req.query("include_empty"));
    const held = (await engine.read.summarizeTypes(flock)).map((t) => ({ name: t.name, count: t.count, last_modified: t.lastModified as string | null }));
    if (!includeEmpty) return c.json({ resource_type: held });
    const seen = new Set(held.map((t) => t.name));
    const empty = [...typesOf(flock)].filter((name) => !seen.has(name)).map((name) => ({ name, count: 0, last_modified: null }));
    return c.json({ resource_type: [...held, ...empty].sort((a, b) => a.name.localeCompare(b.name)) });
  }
}

// --- internal ---

/** `true`/`false` (absent: false); anything else is a 400 naming the parameter. */
function _flag(value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw badRequest("invalid include_empty", `include_empty must be true or false, not ${JSON.stringify(value.slice(0, 40))}`);
}
