/**
 * @module openapi/describe
 * `documented()`: the OpenAPI description of one route, written beside its handler as
 * hono-openapi's `describeRoute` middleware. A route states what it reads and answers by
 * component name (openapi/schemas) and lists the error statuses it can give; error bodies are
 * shaped per surface (v1 or v2) when the document is built, as `errorResponse` shapes them.
 */
import type { MiddlewareHandler } from "hono";
import { toJsonSchema } from "@valibot/to-json-schema";
import { describeRoute } from "hono-openapi";
import type * as v from "valibot";
import type { OpenAPIV3_1 } from "openapi-types";
import type { ComponentName } from "./schemas.js";

/** Who may call a route: the security requirement it gets. */
export type RouteAuth = "none" | "key" | "admin" | "selfService" | "keyOrSelfService" | "card" | "metrics";

/** The description of one route. */
export interface RouteDoc {
  tag: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /** Query parameters beyond the path's (which are added from the path itself). */
  query?: OpenAPIV3_1.ParameterObject[];
  /** The request body: a component, and the media types read (default JSON). */
  body?: { schema: ComponentName; media?: string[]; required?: boolean; description?: string; files?: boolean };
  /**
   * The success answer. `schema` for JSON; `media` for binary, HTML or script answers (beside
   * the JSON one when both are given: a route that answers either). Left out for a route that only refuses (its `errors` list what it answers).
   */
  ok?: { status: number; description: string; schema?: ComponentName; media?: string[] };
  /** Error statuses this route can answer besides 429 and 503 (which every route can). */
  errors: number[];
}

/** The placeholder every error response refers to; the document builder swaps in ErrorV1 or ErrorV2. */
export const ERROR_PLACEHOLDER = "#/components/schemas/Error";

/** What each error status means on this API (the contract's list). */
const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: "bad input: a bad filter, unknown modifier, bad page_size, invalid JSON, a wrong field type or an unknown field",
  401: "missing or invalid credentials",
  403: "valid credentials without access to this flock or path",
  404: "unknown flock, resource type or record",
  409: "a state change that does not apply to the record's state",
  413: "the request body is larger than the server accepts",
  429: "throttled: requests without an APPLICATION header beyond the limit per minute, or logins locked after failures; wait Retry-After seconds",
  503: "the database cannot be reached",
  501: "known from the hosted description and not offered by this service (type not_implemented; docs/hosted-compat.md says why)",
};

/** The security requirement of each kind of caller (scheme names of `SECURITY_SCHEMES`). */
const SECURITY: Record<RouteAuth, OpenAPIV3_1.SecurityRequirementObject[]> = {
  none: [],
  key: [{ bearerKey: [] }],
  admin: [{ bearerKey: [] }],
  selfService: [{ selfServiceToken: [] }],
  keyOrSelfService: [{ bearerKey: [] }, { selfServiceToken: [] }],
  card: [{ cardSignature: [] }],
  metrics: [{ metricsToken: [] }],
};

/** The document's security schemes. */
export const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  bearerKey: {
    type: "http",
    scheme: "bearer",
    description: "A core API key from POST /api/v1/auth/ (username and password): Authorization: Bearer <api_key>.",
  },
  selfServiceToken: {
    type: "http",
    scheme: "bearer",
    description: "A member's token from POST /api/v1/{flock}/user/auth/ (email and password); reaches only the self-service paths.",
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "The config's metrics.token (GET /metrics only, when metrics are enabled with a token): Authorization: Bearer <token>.",
  },
  cardSignature: {
    type: "apiKey",
    in: "query",
    name: "signature",
    description: "Lower-case hex HMAC-SHA256 of '{flock}/member/{id}', keyed with the server's card key (records-service card-url prints signed links).",
  },
};

/**
 * The describeRoute middleware for one route. Put it first in the route's handler list.
 *
 * @example
 * routes.get("/ping", documented({ tag: "status", summary: "Liveness", auth: "none",
 *   ok: { status: 200, description: "pong", schema: "Message" }, errors: [] }), handler);
 */
export function documented(doc: RouteDoc): MiddlewareHandler {
  const ok = doc.ok;
  const responses: Record<string, OpenAPIV3_1.ResponseObject> = ok
    ? {
        [String(ok.status)]: {
          description: ok.description,
          content: {
            ...(ok.schema ? { "application/json": { schema: _ref(ok.schema) } } : {}),
            ...Object.fromEntries(
              (ok.media ?? []).filter((m) => !(ok.schema && m === "application/json")).map((m) => [m, { schema: _mediaSchema(m) }]),
            ),
          },
        },
      }
    : {};
  const errors = new Set([...doc.errors, ...(doc.body ? [400, 413] : []), 429, 503]);
  if (doc.auth !== "none") errors.add(401);
  for (const status of [...errors].sort()) {
    responses[String(status)] = {
      description: ERROR_MEANINGS[status] ?? "error",
      content: { "application/json": { schema: { $ref: ERROR_PLACEHOLDER } } },
      ...(status === 429 ? { headers: { "Retry-After": { description: "seconds to wait", schema: { type: "integer" } } } } : {}),
    };
  }
  const description = [doc.description, doc.auth === "admin" ? "Administrator keys only (a user whose flocks are [\"*\"])." : undefined]
    .filter(Boolean)
    .join("\n\n");
  return describeRoute({
    tags: [doc.tag],
    summary: doc.summary,
    ...(description ? { description } : {}),
    security: SECURITY[doc.auth],
    ...(doc.query ? { parameters: doc.query } : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: doc.body.required ?? true,
            ...(doc.body.description ? { description: doc.body.description } : {}),
            content: {
              ...Object.fromEntries((doc.body.media ?? ["application/json"]).map((m) => [m, { schema: _ref(doc.body!.schema) }])),
              // File uploads: one file part per file field, named after the field.
              ...(doc.body.files ? { "multipart/form-data": { schema: { type: "object", additionalProperties: { type: "string", format: "binary" } } } } : {}),
            },
          },
        }
      : {}),
    responses,
  });
}

/** A query parameter. */
export function queryParam(name: string, description: string, schema: OpenAPIV3_1.SchemaObject = { type: "string" }): OpenAPIV3_1.ParameterObject {
  return { in: "query", name, description, required: false, schema } as OpenAPIV3_1.ParameterObject;
}

/**
 * The query parameters a route reads through a valibot object schema (the one it passes to
 * `readQuery`), each described as clients write it (a string before any transform).
 *
 * @example
 * query: queryParamsOf(SearchQuery, { q: "the text to look for" })
 */
export function queryParamsOf(
  schema: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>,
  descriptions: Readonly<Record<string, string>> = {},
): OpenAPIV3_1.ParameterObject[] {
  const json = toJsonSchema(schema, { target: "draft-2020-12", typeMode: "input", errorMode: "ignore" }) as {
    properties?: Record<string, OpenAPIV3_1.SchemaObject>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => ({
    ...queryParam(name, descriptions[name] ?? name, prop),
    required: (json.required ?? []).includes(name),
  }));
}

// --- internal ---

function _mediaSchema(media: string): OpenAPIV3_1.SchemaObject {
  if (media === "application/json") return { type: "object" };
  return media === "application/javascript" ? { type: "string" } : { type: "string", format: "binary" };
}

function _ref(name: ComponentName): OpenAPIV3_1.ReferenceObject {
  return { $ref: `#/components/schemas/${name}` };
}
