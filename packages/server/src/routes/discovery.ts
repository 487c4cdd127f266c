/**
 * @module routes/discovery
 * What a key can see: `GET /` lists its flocks, `GET /:flock` the resource types held in
 * one flock (and so checks access to it).
 */
import type { Clock, Storage } from "@records-service/core";
import { Hono } from "hono";
import { visibleFlocks } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import { createRequireFlock, createRequireKey } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";

/**
 * Routes `GET /` → `{flocks: [{identifier, name}]}` and `GET /:flock` →
 * `{resource_type: [{name, count, last_modified}]}`.
 *
 * @example
 * app.route("/api/v1", createDiscoveryRoutes(storage, clock));
 */
export function createDiscoveryRoutes(storage: Storage, clock: Clock): Hono<AppEnv> {
  const routes = new Hono<AppEnv>({ strict: false });
  const requireKey = createRequireKey(storage, clock);
  const requireFlock = createRequireFlock(storage);

  routes.get("/", documented({ tag: "discovery", summary: "The flocks this key may open", auth: "key", ok: { status: 200, description: "the flocks", schema: "FlockList" }, errors: [403] }), requireKey, async (c) => {
    const flocks = await visibleFlocks(storage, c.get("user"));
    return c.json({ flocks: flocks.map((f) => ({ identifier: f.identifier, name: f.name })) });
  });

  routes.get("/:flock", documented({ tag: "discovery", summary: "The flock's resource types with counts", auth: "key", ok: { status: 200, description: "the resource types", schema: "TypeList" }, errors: [403, 404] }), requireKey, requireFlock, async (c) => {
    const types = await storage.summarizeTypes(c.req.param("flock"));
    return c.json({
      resource_type: types.map((t) => ({ name: t.name, count: t.count, last_modified: t.lastModified })),
    });
  });
  return routes;
}
