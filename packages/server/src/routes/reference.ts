/**
 * @module routes/reference
 * `GET /api/openapi.json` (the OpenAPI document, no credentials) and `GET /api/docs` (an
 * interactive reference of it). The reference is Swagger UI from the `swagger-ui-dist`
 * package, served from this server's own files: no asset comes from another host, so it
 * works offline, and its page allows scripts and styles from this origin only.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { notFound } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { OpenAPIV3_1 } from "openapi-types";
import type { AppEnv } from "../http/env.js";
import type { RouteChain } from "./bind.js";
import { documented } from "../openapi/describe.js";

/** The files of swagger-ui-dist the page loads, with their types; nothing else is served. */
const ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/**
 * The reference routes, mounted at `/api`. `document` builds (or returns the built) OpenAPI
 * document of the whole app.
 *
 * @example
 * const routes = referenceRoutes(() => openApiDocument(app)); route(app, "GET", "/api/openapi.json", routes.getOpenapiJson);
 */
export function referenceRoutes(document: () => Promise<OpenAPIV3_1.Document>): Readonly<Record<"getOpenapiJson" | "getDocs" | "getDocsAssetsFile", RouteChain>> {
  const assets = new Map<string, Promise<Uint8Array>>();

  return {
    getOpenapiJson: [describeGetOpenapiJson(), getOpenapiJson],
    getDocs: [describeGetDocs(), getDocs],
    getDocsAssetsFile: [describeGetDocsAssetsFile(), getDocsAssetsFile],
  } as const;

  function describeGetOpenapiJson(): MiddlewareHandler {
    return documented({ tag: "reference", summary: "This OpenAPI 3.1 document", auth: "none", ok: { status: 200, description: "the document", media: ["application/json"] }, errors: [] });
  }

  async function getOpenapiJson(c: Context<AppEnv, "/openapi.json">) {
    return c.json(await document());
  }

  function describeGetDocs(): MiddlewareHandler {
    return documented({ tag: "reference", summary: "The interactive API reference (HTML)", auth: "none", ok: { status: 200, description: "the page", media: ["text/html"] }, errors: [] });
  }

  function getDocs(c: Context<AppEnv, "/docs">) {
    return c.html(_PAGE, 200, { "Content-Security-Policy": _CSP });
  }

  function describeGetDocsAssetsFile(): MiddlewareHandler {
    return documented({
      tag: "reference",
      summary: "A file of the interactive reference (Swagger UI, served locally)",
      auth: "none",
      ok: { status: 200, description: "the file", media: ["text/javascript", "text/css"] },
      errors: [404],
    });
  }

  async function getDocsAssetsFile(c: Context<AppEnv, "/docs/assets/:file">) {
    const file = c.req.param("file");
    if (file === "init.js") return c.body(_INIT, 200, { "Content-Type": "text/javascript; charset=utf-8" });
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw notFound("not found", `no reference asset ${JSON.stringify(file.slice(0, 80))}`);
    let bytes = assets.get(file);
    if (!bytes) {
      bytes = readFile(join(_distDir(), file)).then((b) => new Uint8Array(b));
      assets.set(file, bytes);
      bytes.catch(() => assets.delete(file));
    }
    const body = await bytes;
    return c.body(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer, 200, {
      "Content-Type": type,
      "Cache-Control": "public, max-age=3600",
    });
  }
}

// --- internal ---

function _distDir(): string {
  return dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
}

// Only this origin: the page must work offline and load nothing from elsewhere.
const _CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'";

const _PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Records Service API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an outside validator.
const _INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#reference", validatorUrl: null, deepLinking: true });\n`;
