/**
 * @module openapi/server-document
 * The document of the whole server without a running one: the routes do not depend on the
 * data, so an app over an empty in-memory store describes every server. `records-service
 * openapi` prints it; the client package generates its types from it.
 */
import { createMemoryStorage, createRecordEngine } from "@records-service/core";
import type { OpenAPIV3_1 } from "openapi-types";
import { createApp } from "../app.js";
import { openApiDocument } from "./document.js";

/**
 * The OpenAPI document every server serves at `/api/openapi.json`.
 *
 * @example
 * const doc = await serverOpenApiDocument(); doc.openapi // "3.1.0"
 */
export function serverOpenApiDocument(): Promise<OpenAPIV3_1.Document> {
  return openApiDocument(createApp({ engine: createRecordEngine({ storage: createMemoryStorage() }), secret: "unused" }));
}
