/**
 * @module routes/indexes
 * The value index's registry for operators (issue 24 point 1; the console's Indexes page,
 * beside `records-service indexes`): `GET /:flock/_indexes/` lists each field's index
 * (declared, earned, building with its progress, dropped); `PUT` and `DELETE
 * /:flock/_indexes/:type/:field/` add and drop one; `POST .../:field/reset/` hands the field
 * back to the defaults. Core keys of the flock, as every flock route. The engine checks the
 * flock and type (404), the field name (400) and refuses to drop a field it looks up itself
 * (400); the back-fill runs in the background, so an added field answers `building`.
 */
import type { FieldIndexView } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import type { RouteEngine } from "../http/route-engine.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";

/**
 * The index routes.
 *
 * @example
 * const routes = fieldIndexRoutes(engine, guards); route(app, "GET", "/api/v1/:flock/_indexes", routes.getIndexes);
 * // GET /api/v1/demo/_indexes/ → {"indexes": [{"type": "person", "field": "email", "status": "declared", "source": "default", "flock": "demo", "progress": 1}, ...]}
 */
export function fieldIndexRoutes(engine: RouteEngine, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    getIndexes: [describeGetIndexes(), ...guard, getIndexes],
    putIndex: [describePutIndex(), ...guard, putIndex],
    deleteIndex: [describeDeleteIndex(), ...guard, deleteIndex],
    postIndexReset: [describePostIndexReset(), ...guard, postIndexReset],
  } as const;

  function describeGetIndexes(): MiddlewareHandler {
    return documented({
      tag: "indexes",
      summary: "Each field's value index in the flock",
      description:
        "The fields the service indexes by default and every field the registry names, by type and field. A field being built answers " +
        "`building` with its progress (filters on it scan until it is `declared` or `earned`); `flock` is `*` when the config's row for every flock rules it.",
      auth: "key",
      ok: { status: 200, description: "the fields' indexes", schema: "FieldIndexes" },
      errors: [403, 404],
    });
  }

  async function getIndexes(c: Context<AppEnv, "/:flock/_indexes">) {
    return c.json({ indexes: (await engine.indexes.list(c.req.param("flock"))).map(_view) });
  }

  function describePutIndex(): MiddlewareHandler {
    return documented({
      tag: "indexes",
      summary: "Index a field in the flock",
      description: "The index is built in the background: the answer is the field's row, `building` until the back-fill is done (or as it was, when indexed already).",
      auth: "key",
      ok: { status: 200, description: "the field's index", schema: "FieldIndex" },
      errors: [400, 403, 404],
    });
  }

  async function putIndex(c: Context<AppEnv, "/:flock/_indexes/:type/:field">) {
    const { flock, type, field } = c.req.param();
    return c.json({ index: _view(await engine.indexes.add(flock, type, field)) });
  }

  function describeDeleteIndex(): MiddlewareHandler {
    return documented({
      tag: "indexes",
      summary: "Stop indexing a field in the flock",
      description: "Filters on the field then scan the flock's records of the type. A field the service looks up itself (references, dates, tags, status, dedupe keys) cannot be dropped: 400.",
      auth: "key",
      ok: { status: 200, description: "the field's index, dropped", schema: "FieldIndex" },
      errors: [400, 403, 404],
    });
  }

  async function deleteIndex(c: Context<AppEnv, "/:flock/_indexes/:type/:field">) {
    const { flock, type, field } = c.req.param();
    return c.json({ index: _view(await engine.indexes.drop(flock, type, field)) });
  }

  function describePostIndexReset(): MiddlewareHandler {
    return documented({
      tag: "indexes",
      summary: "Hand a field back to the defaults in the flock",
      description: "Removes the flock's own row of the field (an operator's, or one earned by demand); the defaults, and the config's row for every flock, rule it again.",
      auth: "key",
      ok: { status: 200, description: "whether a row was removed, and the field's index now (null: not indexed)", schema: "FieldIndexReset" },
      errors: [400, 403, 404],
    });
  }

  async function postIndexReset(c: Context<AppEnv, "/:flock/_indexes/:type/:field/reset">) {
    const { flock, type, field } = c.req.param();
    const reset = await engine.indexes.reset(flock, type, field);
    const now = (await engine.indexes.list(flock)).find((v) => v.type === type && v.field === field);
    return c.json({ reset, index: now ? _view(now) : null });
  }
}

// --- internal ---

/** The answer's shape, written out so that the API does not change with the engine's type. */
function _view(v: FieldIndexView): FieldIndexView {
  return { type: v.type, field: v.field, status: v.status, source: v.source, flock: v.flock, progress: v.progress };
}
