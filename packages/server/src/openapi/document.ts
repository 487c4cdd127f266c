/**
 * @module openapi/document
 * Builds the OpenAPI 3.1 document from the app itself: hono-openapi walks the routes and
 * reads each route's `documented()` description; the component schemas are the valibot
 * schemas of openapi/schemas converted with @valibot/to-json-schema. Error responses get the
 * body of their path's surface, decided by the same `isV2Path` that shapes real errors.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import type { OpenAPIV3_1 } from "openapi-types";
import { isV2Path } from "../http/errors.js";
import { ERROR_PLACEHOLDER, SECURITY_SCHEMES } from "./describe.js";
import { COMPONENT_SCHEMAS, type ComponentName } from "./schemas.js";

/** The API's version as the document states it. */
const API_VERSION = "0.1.0";

const _TAGS: OpenAPIV3_1.TagObject[] = [
  { name: "status", description: "Liveness and health, no credentials." },
  { name: "auth", description: "API keys, and self-service (member) accounts and sessions." },
  { name: "discovery", description: "The flocks a key may open and their resource types." },
  { name: "records", description: "Generic record operations, the same for every resource type (v1 and v2)." },
  { name: "derived", description: "Display values, avatars and signed member cards." },
  { name: "contacts", description: "Contact read models: the read-only contact type (persons and organisations together), contact details, summaries and memberships." },
  { name: "aggregates", description: "Counts by value, distinct values and picker look-ups over a type's records." },
  { name: "search", description: "Finding persons and organisations by fields, and text search." },
  { name: "audit", description: "A flock's and a record's history, and a record's provenance." },
  { name: "selfservice", description: "A member's own reservations (self-service token)." },
  { name: "forms", description: "A form's responses (form and sheep_form), newest first, references expanded." },
  { name: "gateway-internal", description: "The hosted internal gateway this service serves: membership-type extras and email senders." },
  { name: "not-offered", description: "Hosted operations deliberately not offered: each answers 501 (type not_implemented) after its auth checks." },
  { name: "events", description: "Triggers, the webhook outbox and bulk actions." },
  { name: "files", description: "Uploaded files." },
  { name: "gateway-events", description: "The events gateway (/events/v2): events, ticket types and stock, tickets and attendance, over booking, bookable and ticket records." },
  { name: "segments", description: "The segments gateway (/segments/v2): saved queries (segment records), found by name and counted." },
  { name: "finance", description: "The invoices gateway (/invoices/v2): an invoice, a membership or an order as an invoice, keyed or through a signed link." },
  { name: "indexes", description: "Which data fields the database keeps a value index of, per flock: list, add, drop, reset (core keys of the flock)." },
  { name: "admin", description: "Server statistics and the manual clock (administrator keys)." },
  { name: "reference", description: "This document and its interactive reference." },
];

const _cache = new WeakMap<object, Promise<OpenAPIV3_1.Document>>();

/**
 * The document of `app` (built once per app; routes do not change after start).
 *
 * @example
 * const doc = await openApiDocument(createApp({ engine }));
 * Object.keys(doc.paths) // ["/api/v1/ping", ...]
 */
export function openApiDocument(app: Hono<any>): Promise<OpenAPIV3_1.Document> {
  let doc = _cache.get(app);
  if (!doc) {
    doc = _build(app);
    _cache.set(app, doc);
    doc.catch(() => _cache.delete(app));
  }
  return doc;
}

/** The component schemas as JSON Schema 2020-12, referring to each other by `$ref`. */
function componentSchemas(): Record<ComponentName, OpenAPIV3_1.SchemaObject> {
  const out = {} as Record<ComponentName, OpenAPIV3_1.SchemaObject>;
  for (const name of Object.keys(COMPONENT_SCHEMAS) as ComponentName[]) {
    const json = toJsonSchema(COMPONENT_SCHEMAS[name], {
      target: "draft-2020-12",
      // Request bodies are described as clients send them, before any transform.
      typeMode: "input",
      // `check` and `transform` steps have no JSON Schema form; the type they refine stays.
      errorMode: "ignore",
    }) as Record<string, unknown>;
    delete json["$schema"];
    out[name] = json as OpenAPIV3_1.SchemaObject;
  }
  return out;
}

// --- internal ---

async function _build(app: Hono<any>): Promise<OpenAPIV3_1.Document> {
  const spec = await generateSpecs(app, {
    documentation: {
      info: {
        title: "Records Service API",
        version: API_VERSION,
        description:
          "A multi-tenant records and membership API: v1 core paths, v2 derived reads and self-service. " +
          "Send `APPLICATION: <Organisation>/<Application>/<Version>` on every call: requests without it are throttled. " +
          "Every path answers with or without its trailing slash.",
      },
      tags: _TAGS,
      components: { schemas: { ...componentSchemas() }, securitySchemes: SECURITY_SCHEMES },
    },
    // `/api/openapi.json` is a route like any other, not a static file.
    excludeStaticFile: false,
    defaultValidationErrorResponse: false,
  });
  const doc = spec as unknown as OpenAPIV3_1.Document;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const schema = { $ref: `#/components/schemas/${isV2Path(path) ? "ErrorV2" : "ErrorV1"}` };
    for (const op of Object.values(item ?? {}) as OpenAPIV3_1.OperationObject[]) {
      for (const response of Object.values(op.responses ?? {}) as OpenAPIV3_1.ResponseObject[]) {
        const json = response.content?.["application/json"];
        if (json?.schema && "$ref" in json.schema && json.schema.$ref === ERROR_PLACEHOLDER) json.schema = schema;
      }
    }
  }
  return doc;
}
