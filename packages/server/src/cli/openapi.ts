/**
 * @module cli/openapi
 * `records-service openapi`: the OpenAPI document on stdout. No database is opened (see
 * openapi/server-document).
 */
import { serverOpenApiDocument } from "../openapi/server-document.js";
import { EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";

/** Prints the document as JSON; returns the exit code. */
export async function runOpenApi(io: CliIo): Promise<number> {
  io.out(JSON.stringify(await serverOpenApiDocument(), null, 2));
  return EXIT_OK;
}
