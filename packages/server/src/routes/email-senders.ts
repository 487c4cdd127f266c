/**
 * @module routes/email-senders
 * The hosted service's email senders (spec v2-gateway P3), thin over `email_sender`
 * records: `GET`/`POST /internal/v2/{flock}/email_senders` and `GET`/`PUT`/`DELETE
 * /internal/v2/{flock}/email_sender/{uid}`. Core keys of the flock only. Writes go through
 * the engine (audit, change feed, triggers). A second active sender with the same address
 * (case ignored) is the vendor's 400 `already exists`, not a 409. Mount under `/internal/v2`.
 */
import { badRequest, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { actingEngine } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import { liveRecords } from "../gateway/live-records.js";
import { readGatewayParams, requiredParam, type GatewayParams } from "../gateway/params.js";
import { liveRecord } from "../gateway/records.js";
import { booleanParam, listParam } from "../gateway/values.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/** The record type behind a sender. */
const SENDER_TYPE = "email_sender";

/** A sender as the gateway answers it. */
interface EmailSender {
  uid: string;
  email: string | null;
  display_name: string | null;
  products: string[];
  allow_for_all_users: boolean;
  specific_user_list: string[];
}

/**
 * Routes the email-sender paths; mount under `/internal/v2`.
 *
 * @example
 * const routes = emailSenderRoutes(engine, guards); route(app, "GET", "/internal/v2/:flock/email_senders", routes.getEmailSenders);
 */
export function emailSenderRoutes(engine: RouteEngine, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;
  const fields = "email, display_name, products (list), allow_for_all_users (boolean), specific_user_list (list); in the query or a JSON or form body";


  return {
    getEmailSenders: [describeGetEmailSenders(), ...guard, getEmailSenders],
    postEmailSenders: [describePostEmailSenders(), ...guard, postEmailSenders],
    getOne: [describeGetOne(), ...guard, getOne],
    putOne: [describePutOne(), ...guard, putOne],
    deleteOne: [describeDeleteOne(), ...guard, deleteOne],
  } as const;

  function describeGetEmailSenders(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "The flock's email senders", auth: "key", ok: { status: 200, description: "{senders, uids}", schema: "EmailSenders" }, errors: [403, 404] });
  }

  async function getEmailSenders(c: Context<AppEnv, "/:flock/email_senders">) {
    const senders = (await liveRecords(engine, c.req.param("flock")!, SENDER_TYPE)).map(senderOf);
    return c.json({ senders, uids: senders.map((s) => ({ uid: s.uid, email: s.email })) });
  }

  function describePostEmailSenders(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "Add an email sender", description: `Every field required: ${fields}. An active sender with the same address (case ignored): 400 already exists.`, auth: "key", body: { schema: "EmailSenderBody", media: ["application/json", "application/x-www-form-urlencoded"], required: false }, ok: { status: 201, description: "the sender", schema: "EmailSender" }, errors: [400, 403, 404] });
  }

  async function postEmailSenders(c: Context<AppEnv, "/:flock/email_senders">) {
    const flock = c.req.param("flock")!;
    const params = await readGatewayParams(c);
    const data = _senderFields(params, true);
    await _assertUnique(engine, flock, data["email"] as string);
    const created = await actingEngine(c, engine).create(flock, SENDER_TYPE, data);
    return c.json(senderOf(created), 201);
  }

  function describeGetOne(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "One email sender", auth: "key", ok: { status: 200, description: "the sender", schema: "EmailSender" }, errors: [403, 404] });
  }

  async function getOne(c: Context<AppEnv, any>) {
    return c.json(senderOf(await liveRecord(engine, c.req.param("flock")!, SENDER_TYPE, c.req.param("uid")!)));
  }

  function describePutOne(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "Change an email sender (the fields sent)", description: `Any of ${fields}.`, auth: "key", body: { schema: "EmailSenderBody", media: ["application/json", "application/x-www-form-urlencoded"], required: false }, ok: { status: 200, description: "the sender", schema: "EmailSender" }, errors: [400, 403, 404] });
  }

  async function putOne(c: Context<AppEnv, any>) {
    const flock = c.req.param("flock")!;
    const record = await liveRecord(engine, flock, SENDER_TYPE, c.req.param("uid")!);
    const patch = _senderFields(await readGatewayParams(c), false);
    if (Object.keys(patch).length === 0) throw badRequest("nothing to change", `send at least one of ${fields}`);
    if (typeof patch["email"] === "string") await _assertUnique(engine, flock, patch["email"], record.id);
    const { record: updated } = await actingEngine(c, engine).update(flock, SENDER_TYPE, record.id, patch);
    return c.json(senderOf(updated));
  }

  function describeDeleteOne(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "Delete an email sender", auth: "key", ok: { status: 204, description: "deleted, no body" }, errors: [403, 404] });
  }

  async function deleteOne(c: Context<AppEnv, any>) {
    const flock = c.req.param("flock")!;
    const record = await liveRecord(engine, flock, SENDER_TYPE, c.req.param("uid")!);
    await actingEngine(c, engine).delete(flock, SENDER_TYPE, record.id);
    return c.body(null, 204);
  }
}

/**
 * The gateway shape of an `email_sender` record; a field it does not hold is null (lists
 * `[]`, booleans false).
 *
 * @example
 * senderOf(record) // { uid: "6a1f...", email: "news@example.org", display_name: "News", products: ["events"], ... }
 */
function senderOf(record: StoredRecord): EmailSender {
  const d = record.data;
  const texts = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return {
    uid: record.id,
    email: typeof d["email"] === "string" ? d["email"] : null,
    display_name: typeof d["display_name"] === "string" ? d["display_name"] : null,
    products: texts(d["products"]),
    allow_for_all_users: d["allow_for_all_users"] === true,
    specific_user_list: texts(d["specific_user_list"]),
  };
}

// --- internal ---

const _EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The fields sent, checked; with `all`, each one is required. */
function _senderFields(params: GatewayParams, all: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (all || params.has("email")) {
    const email = requiredParam(params, "email", "the sender's email address").trim();
    if (!_EMAIL.test(email) || email.length > 254) throw badRequest("bad email", `${JSON.stringify(email.slice(0, 80))} is not an email address`);
    out["email"] = email;
  }
  if (all || params.has("display_name")) out["display_name"] = requiredParam(params, "display_name", "the name shown as the sender").trim();
  for (const name of ["products", "specific_user_list"]) {
    const list = listParam(params, name);
    if (list === undefined && all) throw badRequest(`missing ${name}`, `the parameter ${name} is required: send a list (it may be empty)`);
    if (list !== undefined) out[name] = list;
  }
  const everyone = booleanParam(params, "allow_for_all_users");
  if (everyone === undefined && all) throw badRequest("missing allow_for_all_users", "the parameter allow_for_all_users is required: send true or false");
  if (everyone !== undefined) out["allow_for_all_users"] = everyone;
  return out;
}

/** 400 `already exists` when another active sender has the address (case ignored). */
async function _assertUnique(engine: RouteEngine, flock: string, email: string, except?: string): Promise<void> {
  const wanted = email.toLowerCase();
  const clash = (await liveRecords(engine, flock, SENDER_TYPE)).find((r) => r.id !== except && String(r.data["email"] ?? "").toLowerCase() === wanted);
  if (clash) throw badRequest("already exists", `the sender ${email} already exists (${clash.id})`);
}
