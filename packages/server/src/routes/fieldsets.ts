/**
 * @module routes/fieldsets
 * Fieldsets on the segments gateway (spec v2-gateway section 7): saved field lists, as
 * `fieldset` records written through the engine. Mounted by routes/segments under
 * `/segments/v2`, before its view-context route. Core keys of the flock only.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | `/:flock/fieldset?resource=` | `{errors, fieldsets}`; with `resource`, those that apply to it |
 * | POST | `/:flock/fieldset` | 201 the new fieldset (`fieldsetSingle`) |
 * | GET | `/:flock/fieldset/:uid` | the fieldset |
 * | DELETE | `/:flock/fieldset/:uid` and `/:flock/fieldset?uid=` | 200 the deleted fieldset; a locked one 409 |
 */
import { badRequest, conflict, CONTACT_TYPE } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { typeFields } from "../gateway/segments/fields.js";
import { FIELDSET_TYPE, fieldsetEntry, fieldsetsOf, fieldsetSingle, isLocked } from "../gateway/segments/fieldsets.js";
import { readGatewayParams, requiredParam, type GatewayParams } from "../gateway/params.js";
import { liveRecord } from "../gateway/records.js";
import { listParam } from "../gateway/values.js";
import { actingEngine } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * The fieldset paths; routes/segments mounts them.
 *
 * @example
 * const routes = fieldsetRoutes(engine, guards); route(app, "GET", "/:flock/fieldset", routes.getFieldset);
 */
export function fieldsetRoutes(engine: RouteEngine, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  const remove = async (c: Context<AppEnv>, uid: string) => {
    const flock = c.req.param("flock")!;
    const fieldset = await liveRecord(engine, flock, FIELDSET_TYPE, uid);
    if (isLocked(fieldset)) throw conflict("fieldset locked", `fieldset /${flock}/${FIELDSET_TYPE}/${fieldset.id}/ is locked; unlock it (locked: false) before deleting it`);
    const deleted = await actingEngine(c, engine).delete(flock, FIELDSET_TYPE, fieldset.id);
    return c.json(await fieldsetSingle(engine, deleted));
  };
  const deleteDoc = (query: boolean) =>
    documented({
      tag: "segments",
      summary: query ? "Delete a fieldset (uid in the query)" : "Delete a fieldset",
      description: "Deleted through the engine (restorable through the generic record path). A locked fieldset is a 409.",
      auth: "key",
      ...(query ? { query: [queryParam("uid", "the fieldset's uid (required)")] } : {}),
      ok: { status: 200, description: "the fieldset, record_state deleted", schema: "FieldsetSingle" },
      errors: [400, 403, 404, 409],
    });

  return {
    getFieldset: [describeGetFieldset(), ...guard, getFieldset],
    postFieldset: [describePostFieldset(), ...guard, postFieldset],
    getFieldsetUid: [describeGetFieldsetUid(), ...guard, getFieldsetUid],
    deleteFieldsetUid: [deleteDoc(false), ...guard, deleteFieldsetUid],
    deleteFieldset: [deleteDoc(true), ...guard, deleteFieldset],
  } as const;

  function describeGetFieldset(): MiddlewareHandler {
    return documented({
      tag: "segments",
      summary: "List fieldsets",
      auth: "key",
      query: [queryParam("resource", "a resource type: only the fieldsets that apply to it (those with no applicable_resources apply to every type)")],
      ok: { status: 200, description: "{errors: [], fieldsets: [...]}", schema: "FieldsetList" },
      errors: [403, 404],
    });
  }

  async function getFieldset(c: Context<AppEnv, "/:flock/fieldset">) {
    const resource = (await readGatewayParams(c)).get("resource")?.trim() || undefined;
    const found = await fieldsetsOf(engine, c.req.param("flock")!, resource);
    return c.json({ errors: [], fieldsets: found.map(fieldsetEntry) });
  }

  function describePostFieldset(): MiddlewareHandler {
    return documented({
      tag: "segments",
      summary: "Save a fieldset",
      description: "With resource and no fields, the fields are that type's known fields (a person's schema; another type's stored field names). No fields at all is a 400. Created through the engine.",
      auth: "key",
      body: { schema: "FieldsetBody", required: false, media: ["application/json", "application/x-www-form-urlencoded"] },
      ok: { status: 201, description: "the fieldset", schema: "FieldsetSingle" },
      errors: [400, 403, 404],
    });
  }

  async function postFieldset(c: Context<AppEnv, "/:flock/fieldset">) {
    const flock = c.req.param("flock")!;
    const data = await _newFieldset(engine, flock, await readGatewayParams(c));
    const created = await actingEngine(c, engine).create(flock, FIELDSET_TYPE, data);
    return c.json(await fieldsetSingle(engine, created), 201);
  }

  function describeGetFieldsetUid(): MiddlewareHandler {
    return documented({ tag: "segments", summary: "Get a fieldset", auth: "key", ok: { status: 200, description: "the fieldset", schema: "FieldsetSingle" }, errors: [403, 404] });
  }

  async function getFieldsetUid(c: Context<AppEnv, "/:flock/fieldset/:uid">) {
    return c.json(await fieldsetSingle(engine, await liveRecord(engine, c.req.param("flock")!, FIELDSET_TYPE, c.req.param("uid")!)));
  }

  function deleteFieldsetUid(c: Context<AppEnv, "/:flock/fieldset/:uid">) {
    return remove(c, c.req.param("uid")!);
  }

  async function deleteFieldset(c: Context<AppEnv, "/:flock/fieldset">) {
    return remove(c, requiredParam(await readGatewayParams(c), "uid", "the fieldset's uid").trim());
  }
}

// --- internal ---

async function _newFieldset(engine: RouteEngine, flock: string, params: GatewayParams): Promise<Record<string, unknown>> {
  const served = (t: string) => t === CONTACT_TYPE || engine.context.typesOf(flock).has(t);
  const resource = params.get("resource")?.trim() || undefined;
  if (resource !== undefined && !served(resource)) throw badRequest("bad resource", `resource ${JSON.stringify(resource.slice(0, 64))} is not served in flock ${flock}`);
  const applicable = listParam(params, "applicable_resources") ?? (resource ? [resource] : []);
  const unserved = applicable.find((t) => !served(t));
  if (unserved !== undefined) throw badRequest("bad applicable_resources", `${JSON.stringify(unserved.slice(0, 64))} is not a resource type served in flock ${flock}`);
  let fields = listParam(params, "fields") ?? [];
  if (fields.length === 0 && resource) fields = [...(await typeFields(engine, flock, resource)).keys()];
  if (fields.length === 0) throw badRequest("no fields", "send fields (a list of field names), or resource to save that type's known fields");
  const text = (name: string, fallback: string) => {
    if (!params.has(name)) return fallback;
    const v = params.value(name);
    if (typeof v !== "string") throw badRequest(`bad ${name}`, `${name} must be a text`);
    return v;
  };
  const placeholder = resource ? `Field list based on ${resource}` : "Field list";
  return {
    name: text("name", placeholder),
    description: text("description", placeholder),
    fields: [...new Set(fields)],
    applicable_resources: applicable,
    active: true,
    locked: false,
  };
}
