/**
 * @module middleware/body-limit
 * Caps request bodies. Unlike hono's `bodyLimit`, which trusts a Content-Length header when
 * one is present, this counts the bytes actually received in every case, so a client that
 * understates Content-Length (or streams chunked) is still cut off at the limit.
 */
import { RecordsError } from "@records-service/core";
import type { MiddlewareHandler } from "hono";

/** Default cap on a request body, files included: 10 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * Middleware answering 413 (through `app.onError`) when the body exceeds `maxBytes`.
 * A declared length over the limit is refused before any byte is read; otherwise the body
 * is read up to the limit and handed on as a buffered copy.
 *
 * @example
 * app.use(createBodyLimit(1024 * 1024));
 */
export function createBodyLimit(maxBytes: number = DEFAULT_BODY_LIMIT_BYTES): MiddlewareHandler {
  return async function bodyLimit(c, next) {
    // A GET or HEAD request never carries a body here (a fetch Request cannot hold one, and
    // @hono/node-server drops it), so `raw.body` is null for them. Not asking for it keeps
    // node-server's lightweight request: building the full Request costs a GET a sizeable
    // share of its time.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = Number(c.req.header("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) throw _tooLarge(maxBytes);

    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw _tooLarge(maxBytes);
      }
      chunks.push(value);
    }
    const buffered = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      buffered.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-length", String(size));
    headers.delete("transfer-encoding");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, body: buffered, signal: c.req.raw.signal });
    return next();
  };
}

// --- internal ---

function _tooLarge(maxBytes: number): RecordsError {
  return new RecordsError(
    "payload_too_large",
    "body too large",
    `the request body is larger than ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(1)} MiB), the most this server accepts`,
  );
}
