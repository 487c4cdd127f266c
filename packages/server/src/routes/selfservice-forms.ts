/**
 * @module routes/selfservice-forms
 * The member app's form responses (spec v2-gateway section 9), under `/selfservice/v2/{flock}`:
 *
 * | method | path | answer |
 * |---|---|---|
 * | POST | `/:flock/form_response` (`form_ref`, `quantity` 1..50, default 1) | `quantity` empty `form_response` records (`status: "started"`), 200 `{form_ref, quantity, form_responses}` |
 * | PUT | `/:flock/form_response/:uid/allocate?contact_ref=` | sets `contact_ref` (a person or organisation of the flock); 200 the response |
 * | DELETE | `/:flock/form_response/:uid/allocate` | sets `contact_ref` to null; 200 the response |
 *
 * Core keys reach every response; a member token reaches the responses it requested
 * (`requested_by_ref`) or that are allocated to its person (others are 404, as absent ones).
 * Parameters come from the query string or a JSON or form body (gateway/params). Every
 * write goes through the engine acting for the caller, so `form_response_created` fires and
 * audit and the change feed see it; every check runs before the first write.
 */
import { badRequest, notFound, parseRecordUri, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { findCallerPerson } from "../auth/caller-person.js";
import { accountEmail } from "../auth/usernames.js";
import { readGatewayParams, requiredParam } from "../gateway/params.js";
import { refOf, uriOf } from "../gateway/read-all.js";
import { liveRecord } from "../gateway/records.js";
import { actingEngine } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import { FORM_TYPES } from "./forms.js";
import type { RouteEngine } from "../http/route-engine.js";

/** Most responses one POST creates. */
const MAX_FORM_RESPONSES_PER_REQUEST = 50;

/** The types a response may be allocated to. */
const CONTACT_TYPES = ["person", "organisation"] as const;

/**
 * The form response routes; mount under `/selfservice/v2`.
 *
 * @example
 * const routes = selfServiceFormRoutes(engine, guards); route(app, "POST", "/selfservice/v2/:flock/form_response", routes.postFormResponse);
 */
export function selfServiceFormRoutes(engine: RouteEngine, guards: RouteGuards) {
  const guard = [guards.requireKey(["core", "self-service"]), guards.requireFlock] as const;

  return {
    postFormResponse: [describePostFormResponse(), ...guard, postFormResponse],
    putFormResponseUidAllocate: [describePutFormResponseUidAllocate(), ...guard, putFormResponseUidAllocate],
    deleteFormResponseUidAllocate: [describeDeleteFormResponseUidAllocate(), ...guard, deleteFormResponseUidAllocate],
  } as const;

  function describePostFormResponse(): MiddlewareHandler {
    return documented({
      tag: "forms",
      summary: "Start form responses: quantity empty responses to a form",
      description:
        "Creates quantity (1..50, default 1) form_response records {form_ref, status: started, contact_ref: null, requested_by_ref}: requested_by_ref is the member's person for a member token, null for a core key. form_ref must be a form or sheep_form URI of the flock (400); an unknown or deleted form is a 404. Parameters in the query string or a JSON or form body.",
      auth: "keyOrSelfService",
      query: [queryParam("form_ref", "the form's URI, /{flock}/form/{id}/ (required; or in the body)"), queryParam("quantity", "how many responses, 1..50 (default 1)")],
      body: { schema: "FormResponseStartBody", media: _BODY_MEDIA, required: false },
      ok: { status: 200, description: "the responses created", schema: "FormResponsesCreated" },
      errors: [400, 403, 404],
    });
  }

  async function postFormResponse(c: Context<AppEnv, "/:flock/form_response">) {
    const flock = c.req.param("flock")!;
    const params = await readGatewayParams(c);
    const formRef = _uriParam(requiredParam(params, "form_ref", "the form's URI, /{flock}/form/{id}/"), "form_ref", flock, FORM_TYPES);
    const quantity = _quantity(params.get("quantity"));
    const form = await liveRecord(engine, flock, formRef.type, formRef.id);
    const requester = c.get("user").role === "self-service" ? uriOf(await _callerPerson(engine, c, flock)) : null;
    const acting = actingEngine(c, engine);
    // One commit: all the responses are stored, or none (a failure leaves no partial set).
    const body = { form_ref: uriOf(form), status: "started", contact_ref: null, requested_by_ref: requester };
    const created = await acting.createMany(flock, RESPONSE_TYPE, Array.from({ length: quantity }, () => ({ ...body })));
    return c.json({ form_ref: uriOf(form), quantity, form_responses: await Promise.all(created.map((r) => engine.toSingle(r))) });
  }

  function describePutFormResponseUidAllocate(): MiddlewareHandler {
    return documented({
      tag: "forms",
      summary: "Allocate a form response to a person or organisation",
      description: "Sets the response's contact_ref to contact_ref (a person or organisation URI of the flock, else 400; an unknown or deleted one 404). A member token reaches only responses it requested or that are allocated to its person (others 404).",
      auth: "keyOrSelfService",
      query: [queryParam("contact_ref", "the person's or organisation's URI (required; or in the body)")],
      body: { schema: "FormResponseAllocateBody", media: _BODY_MEDIA, required: false },
      ok: { status: 200, description: "the response, single-record shape", schema: "Envelope" },
      errors: [400, 403, 404],
    });
  }

  async function putFormResponseUidAllocate(c: Context<AppEnv, "/:flock/form_response/:uid/allocate">) {
    const { flock, uid } = c.req.param() as { flock: string; uid: string };
    const params = await readGatewayParams(c);
    const contact = _uriParam(requiredParam(params, "contact_ref", "a person's or organisation's URI"), "contact_ref", flock, CONTACT_TYPES);
    const response = await _reachableResponse(engine, c, flock, uid);
    const target = await liveRecord(engine, flock, contact.type, contact.id);
    return c.json(await _allocate(engine, c, response, uriOf(target)));
  }

  function describeDeleteFormResponseUidAllocate(): MiddlewareHandler {
    return documented({
      tag: "forms",
      summary: "Release a form response: its contact_ref becomes null",
      description: "A member token reaches only responses it requested or that are allocated to its person (others 404).",
      auth: "keyOrSelfService",
      ok: { status: 200, description: "the response, single-record shape", schema: "Envelope" },
      errors: [403, 404],
    });
  }

  async function deleteFormResponseUidAllocate(c: Context<AppEnv, "/:flock/form_response/:uid/allocate">) {
    const { flock, uid } = c.req.param() as { flock: string; uid: string };
    const response = await _reachableResponse(engine, c, flock, uid);
    return c.json(await _allocate(engine, c, response, null));
  }
}

// --- internal ---

const RESPONSE_TYPE = "form_response";
const _BODY_MEDIA = ["application/json", "application/x-www-form-urlencoded"];

/** A record URI parameter naming one of `types` in `flock`; 400 naming the parameter otherwise. */
function _uriParam(raw: string, name: string, flock: string, types: readonly string[]): { type: string; id: string } {
  const parsed = parseRecordUri(raw.endsWith("/") ? raw : `${raw}/`);
  if (!parsed || parsed.flock !== flock || !types.includes(parsed.type)) {
    throw badRequest(`bad ${name}`, `${name} ${JSON.stringify(raw.slice(0, 80))} is not a ${types.join(" or ")} URI of flock ${flock} (/${flock}/${types[0]}/{id}/)`);
  }
  return parsed;
}

function _quantity(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (n >= 1 && n <= MAX_FORM_RESPONSES_PER_REQUEST) return n;
  throw badRequest("bad quantity", `quantity ${JSON.stringify(raw.slice(0, 40))} is not accepted; use a whole number from 1 to ${MAX_FORM_RESPONSES_PER_REQUEST}`);
}

async function _callerPerson(engine: RouteEngine, c: Context<AppEnv>, flock: string): Promise<StoredRecord> {
  const email = accountEmail(c.get("user").username);
  const person = await findCallerPerson(engine, flock, email);
  if (!person) throw notFound("person not found", `no person in this flock has the email address ${JSON.stringify(email)}`);
  return person;
}

/** The live response `uid`, if the caller may reach it: core keys any, members their own (else 404). */
async function _reachableResponse(engine: RouteEngine, c: Context<AppEnv>, flock: string, uid: string): Promise<StoredRecord> {
  const response = await liveRecord(engine, flock, RESPONSE_TYPE, uid);
  if (c.get("user").role !== "self-service") return response;
  const me = await findCallerPerson(engine, flock, accountEmail(c.get("user").username));
  const mine = me !== undefined && [response.data.requested_by_ref, response.data.contact_ref].some((v) => refOf(v) === uriOf(me));
  if (!mine) throw notFound("not found", `you have no form_response ${JSON.stringify(uid.slice(0, 60))}`);
  return response;
}

async function _allocate(engine: RouteEngine, c: Context<AppEnv>, response: StoredRecord, contactRef: string | null) {
  const { record } = await actingEngine(c, engine).update(response.flock, RESPONSE_TYPE, response.id, { contact_ref: contactRef });
  return engine.toSingle(record);
}
