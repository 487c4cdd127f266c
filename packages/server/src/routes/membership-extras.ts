/**
 * @module routes/membership-extras
 * A membership type's extras (spec v2-gateway P3): the additional fields a membership
 * form asks and the conditions of the type (`Age: Under 18`), kept in the
 * `membership_type` record's `extras` field and changed through the engine's normal update
 * (audit, change feed, triggers). Routes under `/internal/v2/{flock}/membership_type/{uid}/extras`;
 * core keys of the flock only. Mount under `/internal/v2`.
 */
import { badRequest, notFound, recordUri, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { actingEngine } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import { readGatewayParams, requiredParam } from "../gateway/params.js";
import { liveRecord } from "../gateway/records.js";
import { booleanParam, listParam } from "../gateway/values.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/** The form types an additional field may have (the hosted list). */
const FORM_TYPES: readonly string[] = ["checkbox", "date", "email", "multi-choice", "number", "person_record", "select", "tel", "text", "textarea"];

/** One additional field of a membership type's form. */
interface AdditionalField {
  field: string;
  label: string;
  description: string;
  form_type: string;
  required: boolean;
  options?: string[];
  dob_required?: boolean;
}

/** The extras answer. */
interface MembershipExtras {
  uri: string;
  additional_fields: AdditionalField[];
  conditions: { key: string; value: string }[];
}

/**
 * The label as a field name: lower-case, runs of other characters as one `_`.
 *
 * @example
 * slugifyLabel("Emergency contact (phone)") // "emergency_contact_phone"
 */
export function slugifyLabel(label: string): string {
  return label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * The extras stored on a membership type; malformed entries are left out, missing lists are `[]`.
 *
 * @example
 * extrasOf(record) // { uri: "/demo/membership_type/6a1f.../", additional_fields: [], conditions: [] }
 */
function extrasOf(record: StoredRecord): MembershipExtras {
  const raw = record.data["extras"];
  const extras = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x)) : []);
  return {
    uri: recordUri(record.flock, record.type, record.id),
    additional_fields: list(extras["additional_fields"]).filter((f) => typeof f["field"] === "string") as unknown as AdditionalField[],
    conditions: list(extras["conditions"])
      .filter((x) => typeof x["key"] === "string")
      .map((x) => ({ key: x["key"] as string, value: String(x["value"] ?? "") })),
  };
}

/**
 * Routes the extras paths; mount under `/internal/v2`.
 *
 * @example
 * const routes = membershipExtrasRoutes(engine, guards); route(app, "GET", "/internal/v2/:flock/membership_type/:uid/extras", routes.getBase);
 */
export function membershipExtrasRoutes(engine: RouteEngine, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;
  const media = ["application/json", "application/x-www-form-urlencoded"];
  const read = (c: Context<AppEnv>) => liveRecord(engine, c.req.param("flock")!, _TYPE, c.req.param("uid")!);
  const save = async (c: Context<AppEnv>, record: StoredRecord, extras: MembershipExtras) => {
    const stored = { additional_fields: extras.additional_fields, conditions: extras.conditions };
    const { record: updated } = await actingEngine(c, engine).update(record.flock, _TYPE, record.id, { extras: stored });
    return c.json(extrasOf(updated));
  };

  return {
    getBase: [describeGetBase(), ...guard, getBase],
    postAdditionalField: [describePostAdditionalField(), ...guard, postAdditionalField],
    deleteAdditionalField: [describeDeleteAdditionalField(), ...guard, deleteAdditionalField],
    postCondition: [describePostCondition(), ...guard, postCondition],
    deleteCondition: [describeDeleteCondition(), ...guard, deleteCondition],
  } as const;

  function describeGetBase(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "A membership type's extras", auth: "key", ok: { status: 200, description: "{uri, additional_fields, conditions}", schema: "MembershipExtras" }, errors: [403, 404] });
  }

  async function getBase(c: Context<AppEnv, any>) {
    return c.json(extrasOf(await read(c)));
  }

  function describePostAdditionalField(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "Add or replace an additional field", description: `label, description and form_type (${FORM_TYPES.join(", ")}) required; field (default: the label slugified), required (boolean), options (select: required; multi-choice: optional), dob_required (person_record).`, auth: "key", body: { schema: "AdditionalFieldBody", media, required: false }, ok: { status: 200, description: "the extras", schema: "MembershipExtras" }, errors: [400, 403, 404] });
  }

  async function postAdditionalField(c: Context<AppEnv, any>) {
    const record = await read(c);
    const field = _additionalField(await readGatewayParams(c));
    const extras = extrasOf(record);
    const at = extras.additional_fields.findIndex((f) => f.field === field.field);
    if (at >= 0) extras.additional_fields[at] = field;
    else extras.additional_fields.push(field);
    return save(c, record, extras);
  }

  function describeDeleteAdditionalField(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "Remove an additional field", description: "field (required), in the query or a body.", auth: "key", ok: { status: 200, description: "the extras", schema: "MembershipExtras" }, errors: [400, 403, 404] });
  }

  async function deleteAdditionalField(c: Context<AppEnv, any>) {
    const record = await read(c);
    const name = requiredParam(await readGatewayParams(c), "field", "the field's name");
    const extras = extrasOf(record);
    if (!extras.additional_fields.some((f) => f.field === name)) throw notFound("not found", `membership type ${record.id} has no additional field ${JSON.stringify(name.slice(0, 60))}`);
    extras.additional_fields = extras.additional_fields.filter((f) => f.field !== name);
    return save(c, record, extras);
  }

  function describePostCondition(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "Set a condition (Age: Under 18)", description: "key and value required; a condition with the same key is replaced.", auth: "key", body: { schema: "ConditionBody", media, required: false }, ok: { status: 200, description: "the extras", schema: "MembershipExtras" }, errors: [400, 403, 404] });
  }

  async function postCondition(c: Context<AppEnv, any>) {
    const record = await read(c);
    const params = await readGatewayParams(c);
    const key = requiredParam(params, "key", "the condition's name").trim();
    const value = requiredParam(params, "value", "the condition's value").trim();
    const extras = extrasOf(record);
    extras.conditions = [...extras.conditions.filter((x) => x.key !== key), { key, value }];
    return save(c, record, extras);
  }

  function describeDeleteCondition(): MiddlewareHandler {
    return documented({ tag: "gateway-internal", summary: "Remove a condition", description: "key (required), in the query or a body.", auth: "key", ok: { status: 200, description: "the extras", schema: "MembershipExtras" }, errors: [400, 403, 404] });
  }

  async function deleteCondition(c: Context<AppEnv, any>) {
    const record = await read(c);
    const key = requiredParam(await readGatewayParams(c), "key", "the condition's name").trim();
    const extras = extrasOf(record);
    if (!extras.conditions.some((x) => x.key === key)) throw notFound("not found", `membership type ${record.id} has no condition ${JSON.stringify(key.slice(0, 60))}`);
    extras.conditions = extras.conditions.filter((x) => x.key !== key);
    return save(c, record, extras);
  }
}

// --- internal ---

const _TYPE = "membership_type";
const _FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

function _additionalField(params: Awaited<ReturnType<typeof readGatewayParams>>): AdditionalField {
  const label = requiredParam(params, "label", "the field's label").trim();
  const description = requiredParam(params, "description", "the field's help text").trim();
  const formType = requiredParam(params, "form_type", FORM_TYPES.join(", ")).trim();
  if (!FORM_TYPES.includes(formType)) throw badRequest("bad form_type", `form_type ${JSON.stringify(formType.slice(0, 40))} is not one of ${FORM_TYPES.join(", ")}`);
  const field = params.has("field") ? requiredParam(params, "field", "a field name").trim() : slugifyLabel(label);
  if (!_FIELD_NAME.test(field)) {
    throw badRequest("bad field", `field ${JSON.stringify(field.slice(0, 70))} must be lower-case letters, digits and _ starting with a letter (64 at most); send field when the label has no letters`);
  }
  const out: AdditionalField = { field, label, description, form_type: formType, required: booleanParam(params, "required", false) };
  const options = listParam(params, "options");
  if (formType === "select") {
    if (!options || options.length === 0) throw badRequest("missing options", "a select field needs options: send a list of choices");
    out.options = options;
  } else if (formType === "multi-choice") {
    if (options !== undefined) out.options = options;
  } else if (options !== undefined) {
    throw badRequest("bad options", `options are for select and multi-choice fields, not ${formType}`);
  }
  const dob = booleanParam(params, "dob_required");
  if (formType === "person_record") out.dob_required = dob ?? false;
  else if (dob !== undefined) throw badRequest("bad dob_required", `dob_required is for person_record fields, not ${formType}`);
  return out;
}
