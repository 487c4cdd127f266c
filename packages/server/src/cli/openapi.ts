/**
 * @module cli/openapi
 * `records-service openapi`: the OpenAPI document on stdout. The document depends only on
 * the routes, so it is built from an app over an empty in-memory store: no database is opened.
 */
import { createMemoryStorage, createRecordEngine } from "@records-service/core";
import { createApp } from "../app.js";
import { openApiDocument } from "../openapi/document.js";
import { EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";

/** Prints the document as JSON; returns the exit code. */
export async function runOpenApi(io: CliIo): Promise<number> {
  const app = createApp({ engine: createRecordEngine({ storage: createMemoryStorage() }), secret: "unused" });
  io.out(JSON.stringify(await openApiDocument(app), null, 2));
  return EXIT_OK;
}
