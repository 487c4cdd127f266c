/**
 * @module routes/record-actions
 * Operations on one record beyond read and write: restore, obfuscate, touch, recalc and
 * the display value. Lifecycle operations answer with the record's envelope after the
 * change, so the caller sees the new state and timestamps.
 */
import { badRequest } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { bodyKind, readBodyBytes, readOptionalJsonObject, unsupportedBody } from "../http/body.js";
import type { AppEnv } from "../http/env.js";
import { actingEngine } from "../http/acting.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * Routes under `/:flock/:type/:id/`: `restore` (POST), `obfuscate` (PUT or POST), `touch`
 * (POST), `recalc` (POST, optional `force` as JSON or query) and `display` (GET).
 *
 * @example
 * const routes = recordActionRoutes(engine, guards); route(app, "POST", "/api/v1/:flock/:type/:id/restore", routes.postTypeIdRestore);
 */
export function recordActionRoutes(engine: RouteEngine, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    postTypeIdRestore: [describePostTypeIdRestore(), ...guard, postTypeIdRestore],
    updateTypeIdObfuscate: [describeUpdateTypeIdObfuscate(), ...guard, updateTypeIdObfuscate],
    postTypeIdTouch: [describePostTypeIdTouch(), ...guard, postTypeIdTouch],
    postTypeIdRecalc: [describePostTypeIdRecalc(), ...guard, postTypeIdRecalc],
    getTypeIdDisplay: [describeGetTypeIdDisplay(), ...guard, getTypeIdDisplay],
  } as const;

  function describePostTypeIdRestore(): MiddlewareHandler {
    return documented({ tag: "records", summary: "Restore a deleted record", auth: "key", ok: { status: 200, description: "the record", schema: "Envelope" }, errors: [403, 404, 409] });
  }

  async function postTypeIdRestore(c: Context<AppEnv, "/:flock/:type/:id/restore">) {
    const { flock, type, id } = c.req.param();
    return c.json(await engine.toSingle(await actingEngine(c, engine).restore(flock, type, id)));
  }

  function describeUpdateTypeIdObfuscate(): MiddlewareHandler {
    return documented({ tag: "records", summary: "Obfuscate: remove personal data, keep the record", auth: "key", ok: { status: 200, description: "the record", schema: "Envelope" }, errors: [403, 404, 409] });
  }

  // The spec writes PUT; POST is accepted too, as for the other actions.
  async function updateTypeIdObfuscate(c: Context<AppEnv, "/:flock/:type/:id/obfuscate">) {
    const { flock, type, id } = c.req.param();
    return c.json(await engine.toSingle(await actingEngine(c, engine).obfuscate(flock, type, id)));
  }

  function describePostTypeIdTouch(): MiddlewareHandler {
    return documented({ tag: "records", summary: "Touch: update the record's timestamp", auth: "key", ok: { status: 200, description: "the record", schema: "Envelope" }, errors: [403, 404, 409] });
  }

  async function postTypeIdTouch(c: Context<AppEnv, "/:flock/:type/:id/touch">) {
    const { flock, type, id } = c.req.param();
    return c.json(await engine.toSingle(await actingEngine(c, engine).touch(flock, type, id)));
  }

  function describePostTypeIdRecalc(): MiddlewareHandler {
    return documented({
      tag: "records",
      summary: "Recalculate derived fields",
      auth: "key",
      query: [queryParam("force", "true also recalculates related records (slower)", { type: "boolean" })],
      body: { schema: "RecalcBody", required: false, description: "optional; force in the body wins over the query" },
      ok: { status: 200, description: "done", schema: "RecalcResult" },
      errors: [403, 404],
    });
  }

  async function postTypeIdRecalc(c: Context<AppEnv, "/:flock/:type/:id/recalc">) {
    const { flock, type, id } = c.req.param();
    const force = await _readForce(c);
    return c.json(await actingEngine(c, engine).recalc(flock, type, id, { force }));
  }

  function describeGetTypeIdDisplay(): MiddlewareHandler {
    return documented({ tag: "derived", summary: "A record's display value", auth: "key", ok: { status: 200, description: "the display value", schema: "DisplayValue" }, errors: [403, 404] });
  }

  async function getTypeIdDisplay(c: Context<AppEnv, "/:flock/:type/:id/display">) {
    const { flock, type, id } = c.req.param();
    const record = await engine.get(flock, type, id);
    return c.json({ display_value: record.displayValue });
  }
}

// --- internal ---

const _TRUE = ["true", "y", "yes", "1"];
const _FALSE = ["false", "n", "no", "0", ""];

/** `force` from the query string or a JSON body (the body wins); absent means false. */
async function _readForce(c: Context<AppEnv>): Promise<boolean> {
  let raw: unknown = c.req.query("force");
  if (bodyKind(c) !== "json") {
    // An empty body under any Content-Type is no body (some clients always send one).
    if (/\S/.test(new TextDecoder().decode(await readBodyBytes(c)))) throw unsupportedBody(c, 'no body, or a JSON object such as {"force": true}');
  }
  const body = bodyKind(c) === "json" ? await readOptionalJsonObject(c) : undefined;
  if (body && "force" in body) raw = body.force;
  if (raw === undefined || raw === null) return false;
  if (typeof raw === "boolean") return raw;
  if (typeof raw === "string") {
    const folded = raw.trim().toLowerCase();
    if (_TRUE.includes(folded)) return true;
    if (_FALSE.includes(folded)) return false;
  }
  throw badRequest("invalid force", `force must be true or false, not ${JSON.stringify(raw).slice(0, 80)}`);
}
