/**
 * @module tasks/bulk-params
 * The bulk action request (the spec's body) and its checks, made before anything is
 * queued: the action, the lookup query, the field for the resource type, the value for
 * the field's kind and, for a reference, that the record exists in the flock. Each problem
 * is a 400 naming it.
 */
import * as v from "valibot";
import { badRequest } from "../errors.js";
import type { EngineContext } from "../records/types.js";
import { FIELD_NAME_RE, validateInput } from "../schema/input.js";
import { PERSON_FIELDS } from "../schema/person.js";
import { parseRecordUri } from "../schema/references.js";
import { parseTimestamp } from "../time.js";
import { normalizeLookup, parseLookup, type LookupQuery } from "./lookup-query.js";
import { TASK_TYPE } from "./types.js";
import { MEMBERSHIP_TYPES } from "../schema/resource-types.js";

/** The spec's bulk actions. */
const BULK_ACTIONS = ["add_tag", "remove_tag", "set-single-field", "set-single-field-on-last-membership"] as const;
export type BulkActionName = (typeof BULK_ACTIONS)[number];

/** The resource type a bulk action queries when the body names none (the spec's "contacts"). */
const BULK_DEFAULT_TYPE = "person";

/** The body of `POST /api/v1/{flock}/bulk_action/`, as valibot checks its shape. */
export const BulkActionBodySchema = v.object({
  action: v.picklist(BULK_ACTIONS, `action must be one of ${BULK_ACTIONS.join(", ")}`),
  query: v.record(v.string(), v.unknown(), "query is required: a JSON object of field names to values ({} matches every record)"),
  field: v.optional(v.string("field must be a string (a field name)")),
  value: v.optional(v.nullable(v.union([v.string(), v.boolean()], "value must be a string (or true, false or null)"))),
  description: v.optional(v.nullable(v.string("description must be a string"))),
  resource_type: v.optional(v.string("resource_type must be a string (a resource type name)")),
});
export type BulkActionBody = v.InferOutput<typeof BulkActionBodySchema>;

/** A bulk action's parameters as stored on its task. */
export interface BulkParams {
  action: BulkActionName;
  query: LookupQuery;
  resource_type: string;
  /** The field changed (`tags` for the tag actions). */
  field: string;
  /** The tag, or the field's new value converted for the field's kind. */
  value: unknown;
}

/**
 * Checks a bulk action request for `flock` and returns its parameters. Throws 400 naming
 * the first problem: the body's shape, the action, the query, the field, the value.
 *
 * @example
 * await prepareBulkParams(ctx, "demo", { action: "add_tag", query: { tags: "gala" }, value: "thanked" })
 * // { action: "add_tag", query: { tags: "gala" }, resource_type: "person", field: "tags", value: "thanked" }
 */
export async function prepareBulkParams(ctx: EngineContext, flock: string, raw: Record<string, unknown>): Promise<BulkParams> {
  const parsed = v.safeParse(BulkActionBodySchema, raw);
  if (!parsed.success) throw badRequest("invalid bulk action", _describe(parsed.issues));
  const body = parsed.output;
  const type = _resourceType(ctx, flock, body.resource_type, body.action);
  // valibot's record drops keys such as `constructor` and `prototype`: read the raw object.
  const query = normalizeLookup(raw.query);
  parseLookup(query, type, ctx.clock.now()); // a bad filter is refused now, not when the task runs

  if (body.action === "add_tag" || body.action === "remove_tag") {
    if (body.field !== undefined && body.field !== "tags") {
      throw badRequest("invalid bulk action", `${body.action} changes the field tags; leave field out (got ${JSON.stringify(body.field)})`);
    }
    if (typeof body.value !== "string" || body.value.trim() === "") {
      throw badRequest("invalid bulk action", `${body.action} needs value: the tag, a non-empty string`);
    }
    return { action: body.action, query, resource_type: type, field: "tags", value: body.value };
  }

  if (body.field === undefined || body.field === "") {
    throw badRequest("invalid bulk action", `${body.action} needs field: the name of the field to set`);
  }
  if (!("value" in raw) || body.value === undefined) {
    throw badRequest("invalid bulk action", `${body.action} needs value: the field's new value (null clears it)`);
  }
  const target = body.action === "set-single-field" ? type : MEMBERSHIP_TYPES[0]!;
  const value = await _checkedValue(ctx, flock, target, body.field, body.value);
  return { action: body.action, query, resource_type: type, field: body.field, value };
}

// --- internal ---

function _resourceType(ctx: EngineContext, flock: string, given: string | undefined, action: BulkActionName): string {
  const type = given === undefined || given === "contacts" || given === "contact" ? BULK_DEFAULT_TYPE : given;
  if (!ctx.typesOf(flock).has(type)) {
    throw badRequest("invalid bulk action", `resource_type ${JSON.stringify(type)} is not a resource type this service serves`);
  }
  if (type === TASK_TYPE) throw badRequest("invalid bulk action", `resource_type ${TASK_TYPE} holds the tasks themselves; a bulk action cannot change them`);
  if (action === "set-single-field-on-last-membership" && type !== "person") {
    throw badRequest("invalid bulk action", `${action} matches people: resource_type must be person (or contacts), not ${JSON.stringify(type)}`);
  }
  return type;
}

/**
 * The value to store in `field` of `type`: text converted for the field's kind (booleans
 * from "true"/"false", a list field gets a one-entry list), then checked by the same input
 * validation as a create; a record URI must name a record of this flock.
 */
async function _checkedValue(ctx: EngineContext, flock: string, type: string, field: string, raw: string | boolean | null): Promise<unknown> {
  if (field === "__proto__") throw badRequest("invalid bulk action", `field "__proto__" is not a field name a record can hold`);
  if (type === "person" && !Object.hasOwn(PERSON_FIELDS, field)) {
    throw badRequest("unknown fields", `person has no field '${field}'`);
  }
  if (type !== "person" && !FIELD_NAME_RE.test(field)) {
    throw badRequest("invalid bulk action", `field ${JSON.stringify(field)}: a field name is letters, digits and underscores, not starting with a digit`);
  }
  const value = _converted(type, field, raw);
  validateInput(type, { [field]: value }); // unknown person fields, system fields, wrong kinds: 400
  if (MEMBERSHIP_TYPES.includes(type)) _checkMembershipKind(field, value);
  await _checkReference(ctx, flock, field, value, _isReferenceField(type, field));
  return value;
}

const _BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false };

/** Membership fields the engine reads with a kind (contract: "Fields the engine reads"). */
const _MEMBERSHIP_KINDS: Record<string, "boolean" | "date"> = { auto_renew: "boolean", start_date: "date", end_date: "date" };

function _converted(type: string, field: string, raw: string | boolean | null): unknown {
  if (raw === null || typeof raw === "boolean") return raw;
  const kinds: Readonly<Record<string, string>> = type === "person" ? PERSON_FIELDS : MEMBERSHIP_TYPES.includes(type) ? _MEMBERSHIP_KINDS : {};
  const kind = Object.hasOwn(kinds, field) ? kinds[field] : undefined;
  if (kind === "boolean" || kind === "flag") {
    const b = _BOOLEAN_TEXT[raw.trim().toLowerCase()];
    if (b === undefined) throw badRequest("invalid field value", `${field}: expected true or false, not ${JSON.stringify(raw)}`);
    return b;
  }
  if (kind === "list") return [raw];
  return raw;
}

function _checkMembershipKind(field: string, value: unknown): void {
  if (value === null || typeof value === "boolean" || !Object.hasOwn(_MEMBERSHIP_KINDS, field)) return;
  if (_MEMBERSHIP_KINDS[field] === "date" && (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value) || !parseTimestamp(value))) {
    throw badRequest("invalid field value", `${field}: expected a date (YYYY-MM-DD) or a timestamp, not ${JSON.stringify(value)}`);
  }
}

/** Fields that hold a record URI on open types: `member` and every `*_ref`. */
function _isReferenceField(type: string, field: string): boolean {
  return type !== "person" && (field === "member" || field.endsWith("_ref"));
}

async function _checkReference(ctx: EngineContext, flock: string, field: string, value: unknown, required: boolean): Promise<void> {
  if (value === null) return;
  const uri = typeof value === "string" ? parseRecordUri(value) : undefined;
  if (!uri) {
    if (required) throw badRequest("invalid reference", `${field}: expected a record URI (/${flock}/{type}/{id}/), not ${JSON.stringify(value)}`);
    return;
  }
  const found = uri.flock === flock ? await ctx.storage.getRecord(flock, uri.type, uri.id) : undefined;
  if (!found) throw badRequest("invalid reference", `${field}: there is no record ${value as string} in flock ${JSON.stringify(flock)}`);
}

const _REQUIRED: Record<string, string> = {
  action: `action is required: one of ${BULK_ACTIONS.join(", ")}`,
  query: "query is required: a JSON object of field names to values ({} matches every record)",
};

/** One line naming each bad key once: `action: must be one of ...; query: ...`. */
function _describe(issues: readonly v.BaseIssue<unknown>[]): string {
  const byKey = new Map<string, string>();
  for (const issue of issues) {
    const key = String(issue.path?.[0]?.key ?? "body");
    // A missing key is the object's issue; say what the key needs instead.
    const message = issue.input === undefined && _REQUIRED[key] ? _REQUIRED[key] : issue.message;
    if (!byKey.has(key)) byKey.set(key, message.startsWith(key) ? message : `${key}: ${message}`);
  }
  return [...byKey.values()].join("; ");
}
