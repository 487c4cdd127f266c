/**
 * @module middleware/body-limit
 * Caps request bodies. Unlike hono's `bodyLimit`, which trusts a Content-Length header when
 * one is present, this counts the bytes actually received in every case, so a client that
 * understates Content-Length (or streams chunked) is still cut off at the limit. Only a
 * multipart upload may use the whole limit; every other body is parsed synchronously and
 * gets `MAX_JSON_BODY_BYTES` at most.
 */
import { RecordsError } from "@records-service/core";
import { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import { MAX_JSON_BODY_BYTES } from "../http/limits.js";

/**
 * Middleware answering 413 (through `app.onError`) when the body exceeds `maxBytes`
 * (multipart) or the smaller of `maxBytes` and `MAX_JSON_BODY_BYTES` (any other body).
 * A declared length over the limit is refused before any byte is read; otherwise the body
 * is read up to the limit and handed on as a buffered copy (also as `rawBody`, which the
 * body readers use as it is).
 *
 * @example
 * app.use(createBodyLimit(1024 * 1024));
 */
export function createBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async function bodyLimit(c, next) {
    // A GET or HEAD request never carries a body here (a fetch Request cannot hold one, and
    // @hono/node-server drops it), so `raw.body` is null for them. Not asking for it keeps
    // node-server's lightweight request: building the full Request costs a GET a sizeable
    // share of its time.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const incoming = _unreadIncoming(c);
    const body = incoming ? undefined : c.req.raw.body;
    if (!incoming && !body) return next();
    const multipart = /^multipart\/form-data\s*(;|$)/i.test(c.req.header("content-type") ?? "");
    const limit = multipart ? maxBytes : Math.min(maxBytes, MAX_JSON_BODY_BYTES);
    const tooLarge = () => (multipart || limit === maxBytes ? _tooLarge(maxBytes) : _jsonTooLarge(limit, maxBytes));
    const declared = Number(c.req.header("content-length"));
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();

    if (incoming) {
      // Served by @hono/node-server: the bytes are read from the socket's request as they
      // come, and left where node-server looks for a body read before it (`rawBody`), so
      // the request is never turned into a full fetch Request (twice, with a stream each:
      // a tenth of a PUT's CPU). Any later reader of the request gets those bytes.
      const buffered = await _readIncoming(incoming, limit, Number.isFinite(declared) ? declared : 0);
      if (!buffered) throw tooLarge();
      c.set("rawBody", buffered);
      incoming.rawBody = Buffer.from(buffered.buffer, buffered.byteOffset, buffered.byteLength);
      return next();
    }

    // Each chunk is copied as it arrives, into a buffer of the declared size when there is
    // one: a 10 MiB body is never copied in one synchronous step.
    const reader = body!.getReader();
    let buffer = new Uint8Array(Number.isFinite(declared) && declared > 0 ? declared : 64 * 1024);
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      if (size + value.byteLength > buffer.byteLength) buffer = _grown(buffer, size, size + value.byteLength, limit);
      buffer.set(value, size);
      size += value.byteLength;
    }
    const buffered = buffer.subarray(0, size);
    c.set("rawBody", buffered);
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-length", String(size));
    headers.delete("transfer-encoding");
    // The body readers take `rawBody`; the request keeps a body for any other reader, as a
    // stream, which the platform does not copy unless it is read.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(buffered);
        controller.close();
      },
    });
    c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, body: stream, signal: c.req.raw.signal, duplex: "half" } as RequestInit);
    return next();
  };
}

// --- internal ---

/** The Node request @hono/node-server hands over (`c.env.incoming`), with the field it reads a buffered body from. */
type _Incoming = IncomingMessage & { rawBody?: unknown };

/**
 * The Node request behind `c`, when the app is served by @hono/node-server and nothing has
 * read the body yet; undefined otherwise (`app.request()` in tests, a body already read),
 * where the body is read through the fetch Request.
 */
function _unreadIncoming(c: Context<AppEnv>): _Incoming | undefined {
  const env = c.env as { server?: { incoming?: unknown }; incoming?: unknown } | undefined;
  const incoming = (env?.server ?? env)?.incoming;
  if (!(incoming instanceof IncomingMessage) || incoming.readableDidRead || "rawBody" in incoming) return undefined;
  return incoming;
}

/**
 * The body of `incoming`, copied chunk by chunk into a buffer of the declared size (or
 * grown); undefined, with the request destroyed as cancelling its stream did, once more
 * than `limit` bytes arrive.
 */
function _readIncoming(incoming: IncomingMessage, limit: number, declared: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    let buffer = new Uint8Array(declared > 0 ? declared : 64 * 1024);
    let size = 0;
    const done = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.byteLength > limit) {
        done();
        incoming.destroy();
        resolve(undefined);
        return;
      }
      if (size + chunk.byteLength > buffer.byteLength) buffer = _grown(buffer, size, size + chunk.byteLength, limit);
      buffer.set(chunk, size);
      size += chunk.byteLength;
    };
    const onEnd = () => {
      done();
      resolve(buffer.subarray(0, size));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    const onClose = () => {
      if (incoming.readableEnded) return onEnd();
      done();
      reject(new Error("the client closed the connection before its body arrived"));
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}

/** `buffer` (its first `used` bytes) in a larger one holding at least `needed`: doubled, at most `limit`. */
function _grown(buffer: Uint8Array, used: number, needed: number, limit: number): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(Math.min(limit, Math.max(needed, buffer.byteLength * 2)));
  grown.set(buffer.subarray(0, used));
  return grown;
}

function _tooLarge(maxBytes: number): RecordsError {
  return new RecordsError(
    "payload_too_large",
    "body too large",
    `the request body is larger than ${maxBytes} bytes (${_mib(maxBytes)}), the most this server accepts`,
  );
}

function _jsonTooLarge(limit: number, maxBytes: number): RecordsError {
  return new RecordsError(
    "payload_too_large",
    "body too large",
    `a JSON or form body is at most ${limit} bytes (${_mib(limit)}, MAX_JSON_BODY_BYTES); ` +
      `only a multipart file upload may be larger, up to ${maxBytes} bytes (${_mib(maxBytes)})`,
  );
}

function _mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}
