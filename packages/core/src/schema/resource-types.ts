/**
 * @module schema/resource-types
 * The resource type names a flock serves through the generic record paths, and the checks
 * on a type name taken from a path.
 */
import { badRequest, notFound } from "../errors.js";

/**
 * The default served types: the spec's examples plus the types its events and the
 * contract name. `bulk_action` is absent on purpose: it has its own endpoint.
 */
export const DEFAULT_RESOURCE_TYPES: readonly string[] = [
  // the spec's list of example resource types
  "person",
  "organisation",
  "journal",
  "member",
  "membership",
  "booking",
  "reservation",
  "bookable",
  "payment",
  "payment_plan",
  "activity",
  "allocation",
  "segment",
  "search",
  "trigger",
  // named by the spec's data events and by the contract
  "data_event",
  "core_event",
  "ticket",
  "ticketed_event",
  "invoice",
  "pledge",
  "donation",
  "form_response",
  "achievement",
  "evidence",
  "mandate",
  "application",
  // named by the hosted service's documentation and its public clients (issue 14)
  "membership_type",
  "sheep_form",
  // the hosted service's form definitions (`/{flock}/form/{uid}/`), whose responses AutoCertificate reads (issue 21)
  "form",
  "form_template",
  "form_section",
  "email_sender",
  "fieldset",
];

/**
 * `contact`: a read-only view spanning these types (the hosted service's `contact`), served
 * by its own routes (list, get, mapreduce), never written.
 */
export const CONTACT_TYPE = "contact";
export const CONTACT_TYPES: readonly string[] = ["person", "organisation"];

/** The types that hold membership records (`member` is what the hosted service and its card path use). */
export const MEMBERSHIP_TYPES: readonly string[] = ["member", "membership"];

/** Names that can never be generic types because they have their own endpoints. */
export const RESERVED_TYPE_NAMES: readonly string[] = ["bulk_action", "outbox", "triggers", "user", "contact", "find", "groupby", "distinct", "lookup"];

/** The shape of a resource type name: lower-case, starts with a letter, at most 64 characters. */
export const RESOURCE_TYPE_RE = /^[a-z][a-z0-9_]{0,63}$/;

/** True when `name` has the shape of a resource type name. */
export function isResourceTypeName(name: string): boolean {
  return RESOURCE_TYPE_RE.test(name);
}

/**
 * The set of served types: the defaults plus `extra`. A malformed or reserved extra name
 * is a configuration mistake: 400 naming it.
 *
 * @example
 * resourceTypeSet(["volunteer"]).has("volunteer") // true
 */
export function resourceTypeSet(extra: readonly string[] = []): ReadonlySet<string> {
  checkExtraTypeNames(extra);
  return new Set([...DEFAULT_RESOURCE_TYPES, ...extra]);
}

/**
 * Throws 400 naming the first name in `extra` that cannot be an extra served type: the
 * wrong shape, or reserved for a path of its own.
 */
export function checkExtraTypeNames(extra: readonly string[]): void {
  for (const name of extra) {
    if (!isResourceTypeName(name)) {
      throw badRequest("invalid resource type name", `'${name}' must match ${RESOURCE_TYPE_RE.source}`);
    }
    if (RESERVED_TYPE_NAMES.includes(name)) {
      throw badRequest("reserved resource type name", `'${name}' has its own endpoint and cannot be a generic type`);
    }
  }
}

/**
 * Throws 404 unless `type` is served. A malformed name is also 404: no such type can exist.
 *
 * @example
 * assertServedType(resourceTypeSet(), "widget") // throws RecordsError("not_found", "unknown resource type")
 */
export function assertServedType(served: ReadonlySet<string>, type: string): void {
  if (!isResourceTypeName(type)) {
    throw notFound("unknown resource type", `'${type}' is not a valid resource type name (${RESOURCE_TYPE_RE.source})`);
  }
  if (!served.has(type)) {
    throw notFound("unknown resource type", `'${type}' is not a resource type this service serves`);
  }
}
