/**
 * @module routes/files
 * `GET /:flock/:fileId/:filename`: an uploaded file, to a key that may open its flock.
 * Uploaded bytes are untrusted: the answer forbids sniffing and scripts, and only raster
 * images are shown inline; everything else (SVG included, which can carry script) downloads.
 */
import { notFound, type RecordReader, type StoredFile } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";

/** Content types served inline; anything else is sent as an attachment. */
export const INLINE_CONTENT_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"];

/**
 * Routes serving stored files; mount under `/files/v1`.
 *
 * @example
 * const routes = fileRoutes(engine.read, guards); route(app, "GET", "/files/v1/:flock/:fileId/:filename", routes.getFileIdFilename);
 */
export function fileRoutes(read: RecordReader, guards: RouteGuards) {
  return {
    getFileIdFilename: [describeGetFileIdFilename(), guards.requireKey(), guards.requireFlock, getFileIdFilename],
  } as const;

  function describeGetFileIdFilename(): MiddlewareHandler {
    return documented({ tag: "files", summary: "An uploaded file", auth: "key", ok: { status: 200, description: "the file's bytes with its content type", media: ["application/octet-stream"] }, errors: [403, 404] });
  }

  async function getFileIdFilename(c: Context<AppEnv, "/:flock/:fileId/:filename">) {
    const { flock, fileId, filename } = c.req.param();
    const file = await read.getFile(flock, fileId);
    if (!file || file.flock !== flock || file.filename !== filename) {
      throw notFound("file not found", `no file ${JSON.stringify(filename.slice(0, 80))} with id ${JSON.stringify(fileId.slice(0, 40))} in this flock`);
    }
    return c.body(toArrayBuffer(file.bytes), 200, _headers(file));
  }
}

/**
 * The bare, lower-case MIME type of a stored content type (parameters dropped); a value
 * that is not a well-formed type becomes `application/octet-stream`.
 *
 * @example
 * mimeType("Image/PNG; charset=x") // "image/png"
 */
export function mimeType(contentType: string): string {
  const declared = contentType.split(";")[0]!.trim().toLowerCase();
  return _MIME_RE.test(declared) ? declared : "application/octet-stream";
}

/** The bytes of `bytes` (which may be a view into a larger buffer) as their own ArrayBuffer, for `c.body`. */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

// --- internal ---

const _MIME_RE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

function _headers(file: StoredFile): Record<string, string> {
  const type = mimeType(file.contentType);
  const disposition = INLINE_CONTENT_TYPES.includes(type) ? "inline" : "attachment";
  return {
    "Content-Type": type,
    "Content-Disposition": `${disposition}; filename="${_asciiName(file.filename)}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cache-Control": "private, max-age=0, must-revalidate",
  };
}

/** A quoted-string-safe fallback name for old clients: ASCII printable, no quotes or backslashes. */
function _asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, "_");
}
