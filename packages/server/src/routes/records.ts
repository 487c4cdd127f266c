/**
 * @module routes/records
 * The spec's generic record operations, the same for every resource type: create, list,
 * get, update (JSON or file upload), delete. Each handler reads its input, calls one
 * engine operation and shapes the answer with core's envelope functions; the rules
 * themselves live in core.
 */
import { badRequest, listAnswerText, parseListQuery, PERSON_FIELDS, singleEnvelopeText } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { bodyKind, readFileUploads, readJsonObject, unsupportedBody } from "../http/body.js";
import type { AppEnv } from "../http/env.js";
import type { Surface } from "../http/surface.js";
import { actingEngine } from "../http/acting.js";
import type { ResponseCache } from "../http/response-cache.js";
import type { RouteGuards } from "../middleware/auth.js";
import { securedJson } from "../middleware/security-headers.js";
import { expectedVersionOf, versionTag } from "../http/version-tag.js";
import { documented } from "../openapi/describe.js";
import { listQueryParams } from "../openapi/list-query.js";
import type { RouteEngine } from "../http/route-engine.js";

/** Types only the service writes (events, tasks): not created through the API, nor imported. */
export const SERVICE_WRITTEN_TYPES: readonly string[] = ["data_event", "core_event"];

/**
 * Routes under `/:flock/:type` for create, list, get, update and delete. `singles` is the
 * single-record response cache, one shared between surfaces (the text is the same for v1
 * and v2).
 *
 * @example
 * const routes = recordRoutes(engine, guards, "v1", singles); route(app, "POST", "/api/v1/:flock/:type", routes.createRecord);
 */
export function recordRoutes(engine: RouteEngine, guards: RouteGuards, surface: Surface, singles: ResponseCache) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    createRecord: [describeCreateRecord(), ...guard, createRecord],
    listRecords: [describeListRecords(), ...guard, listRecords],
    getRecord: [describeGetRecord(), ...guard, getRecord],
    updateRecord: [describeUpdateRecord(), ...guard, updateRecord],
    deleteRecord: [describeDeleteRecord(), ...guard, deleteRecord],
  } as const;

  function describeCreateRecord(): MiddlewareHandler {
    return documented({
      tag: "records",
      summary: "Create a record",
      description: "data_event and core_event records are created by the service only (400).",
      auth: "key",
      body: { schema: "RecordFields" },
      ok: { status: 201, description: "the record", schema: "Envelope" },
      errors: [403, 404],
    });
  }

  async function createRecord(c: Context<AppEnv, "/:flock/:type">) {
    const { flock, type } = c.req.param();
    if (SERVICE_WRITTEN_TYPES.includes(type)) {
      // Forged events or tasks would trigger actions and mislead audits; clients read them
      // and may update a data_event (removing an action's tag makes the action run again).
      throw badRequest("read-only resource type", `${type} records are created by the service, not through the API`);
    }
    if (bodyKind(c) !== "json") throw unsupportedBody(c, "a JSON object (Content-Type: application/json)");
    const record = await actingEngine(c, engine).create(flock, type, await readJsonObject(c));
    return c.json(await engine.toSingle(record), 201);
  }

  function describeListRecords(): MiddlewareHandler {
    return documented({
      tag: "records",
      summary: "List records, filtered and paged",
      auth: "key",
      query: listQueryParams(surface),
      ok: { status: 200, description: "one page", schema: "ListWrapper" },
      errors: [400, 403, 404],
    });
  }

  async function listRecords(c: Context<AppEnv, "/:flock/:type">) {
    const { flock, type } = c.req.param();
    const query = parseListQuery(new URL(c.req.url).searchParams, {
      surface,
      now: clock.now(),
      isKnownField: type === "person" ? _isPersonField : undefined,
    });
    // Built element by element: a page past MAX_LIST_ANSWER_LENGTH is a 400, found while
    // reading (storage) or serializing, never after a huge text was made.
    const text = await listAnswerText(await engine.list(flock, type, query), query, { pause: _turn });
    return securedJson(c, text) ?? c.body(text, 200, _JSON_TYPE);
  }

  function describeGetRecord(): MiddlewareHandler {
    return documented({ tag: "records", summary: "Get a record", auth: "key", ok: { status: 200, description: "the record", schema: "Envelope" }, errors: [403, 404] });
  }

  // The single-record GET is the hottest read: its JSON text is kept in `singles` until
  // anything is written (auth and the flock check still run on every request).
  async function getRecord(c: Context<AppEnv, "/:flock/:type/:id">) {
    const { flock, type, id } = c.req.param();
    const gen = singles.generation();
    if (gen === undefined) {
      const record = await engine.get(flock, type, id);
      return c.json(await engine.toSingle(record), 200, { ETag: versionTag(record.version) });
    }
    const key = `${flock}\u0000${type}\u0000${id}`;
    // An entry is the version tag, a newline, then the envelope's JSON text.
    let entry = singles.get(key, gen);
    if (entry === undefined) {
      const record = await engine.get(flock, type, id);
      entry = `${versionTag(record.version)}\n${singleEnvelopeText(record) ?? JSON.stringify(await engine.toSingle(record))}`;
      singles.set(key, gen, entry);
    }
    const cut = entry.indexOf("\n");
    // What `c.json` sends, without serializing again.
    const text = entry.slice(cut + 1);
    const etag = entry.slice(0, cut);
    return securedJson(c, text, etag) ?? c.body(text, 200, { ..._JSON_TYPE, ETag: etag });
  }

  function describeUpdateRecord(): MiddlewareHandler {
    return documented({
      tag: "records",
      summary: "Update a record (JSON fields), or upload files (multipart file parts)",
      description:
        "JSON answers the fields that changed; multipart answers {errors, updates} with the files' URLs. PATCH is the same as PUT. " +
        'With If-Match: "N" (the ETag of the record\'s GET) the JSON update is applied only while the record is still at version N; otherwise 409 "version conflict".',
      auth: "key",
      body: { schema: "RecordFields", media: ["application/json"], files: true },
      ok: { status: 200, description: "the changed fields (JSON), or the file update {errors, updates} (multipart, see FileUpdate)", schema: "ChangedFields" },
      errors: [400, 403, 404, 409],
    });
  }

  // PATCH is accepted wherever PUT updates (contract, compatibility).
  async function updateRecord(c: Context<AppEnv, "/:flock/:type/:id">) {
    const { flock, type, id } = c.req.param();
    const kind = bodyKind(c);
    if (kind === "multipart") {
      const { errors, updates } = await actingEngine(c, engine).attachFiles(flock, type, id, await readFileUploads(c));
      return c.json({ errors, updates });
    }
    if (kind !== "json") throw unsupportedBody(c, "a JSON object of fields, or multipart file parts");
    const expectedVersion = expectedVersionOf(c.req.header("if-match"));
    const patch = await readJsonObject(c);
    const { changed } = await actingEngine(c, engine).update(flock, type, id, patch, expectedVersion === undefined ? {} : { expectedVersion });
    return c.json(changed);
  }

  function describeDeleteRecord(): MiddlewareHandler {
    return documented({ tag: "records", summary: "Delete a record (restorable)", auth: "key", ok: { status: 200, description: "the record, state deleted", schema: "Envelope" }, errors: [403, 404, 409] });
  }

  async function deleteRecord(c: Context<AppEnv, "/:flock/:type/:id">) {
    const { flock, type, id } = c.req.param();
    return c.json(await engine.toSingle(await actingEngine(c, engine).delete(flock, type, id)));
  }
}

// --- internal ---

const _JSON_TYPE = { "Content-Type": "application/json" } as const;

/** Gives the event loop a turn (between slices of a large answer). */
function _turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function _isPersonField(field: string): boolean {
  return Object.hasOwn(PERSON_FIELDS, field);
}
