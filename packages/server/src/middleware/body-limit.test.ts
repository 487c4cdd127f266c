import { request as httpRequest } from "node:http";
import { isRecordsError } from "@records-service/core";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../http/env.js";
import { listen, type Listener } from "../runtime/http.js";
import { createBodyLimit } from "./body-limit.js";

// Served over a socket (the app.request() cases are in test/bad-inputs.test.ts): here the
// body is read from Node's request, and every later reader must still see its bytes.
const LIMIT = 1000;
const app = new Hono<AppEnv>();
app.onError((e, c) => c.json({ error: e.message }, isRecordsError(e) && e.code === "payload_too_large" ? 413 : 500));
app.use(createBodyLimit(LIMIT));
/** Requests the echo route ran for: one cut at the limit never reaches it. */
let echoed = 0;
app.post("/echo", async (c) => {
  echoed++;
  const env = c.env as { incoming?: { rawBody?: unknown } };
  return c.json({ buffered: c.get("rawBody")?.byteLength ?? null, text: await c.req.text(), fromSocket: Buffer.isBuffer(env.incoming?.rawBody) });
});
app.post("/stream", async (c) => c.json({ text: await new Response(c.req.raw.body).text() }));

let server: Listener;
let base: string;
beforeAll(async () => {
  server = await listen(app.fetch, "127.0.0.1", 0);
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close(100));

/** A POST through node:http, `chunked` without a Content-Length; the status and body, or the socket error. */
function post(path: string, chunks: string[], chunked: boolean): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const length = chunks.reduce((n, s) => n + Buffer.byteLength(s), 0);
    const req = httpRequest(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(chunked ? {} : { "content-length": String(length) }) } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", (e) => resolve({ error: e.message }));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe("body limit, served by @hono/node-server", () => {
  it.each([
    { name: "with a Content-Length", chunked: false },
    { name: "chunked", chunked: true },
  ])("reads the body from the socket, and the request still reads it ($name)", async ({ chunked }) => {
    const text = JSON.stringify({ a: "é".repeat(100) });
    const res = await post("/echo", [text.slice(0, 10), text.slice(10)], chunked);
    expect(res).toEqual({ status: 200, body: JSON.stringify({ buffered: Buffer.byteLength(text), text, fromSocket: true }) });
  });

  it("hands the request's body stream the same bytes", async () => {
    const res = await post("/stream", ['{"x":', "1}"], true);
    expect(res).toEqual({ status: 200, body: JSON.stringify({ text: '{"x":1}' }) });
  });

  it("accepts a body of exactly the limit", async () => {
    const res = await post("/echo", ["x".repeat(LIMIT)], true);
    expect(res).toMatchObject({ status: 200 });
  });

  it("answers 413 for a declared length over the limit, before reading", async () => {
    expect(await post("/echo", ["x".repeat(LIMIT + 1)], false)).toMatchObject({ status: 413 });
  });

  // The old path cancelled the body stream, which destroys the request and its socket: the
  // client sees the connection cut (or, had the answer gone first, the 413).
  it("stops a chunked body at the limit (the request is cut, as cancelling its stream did)", async () => {
    const before = echoed;
    const res = await post("/echo", ["x".repeat(600), "x".repeat(600)], true);
    // The client sees the 413, or the connection cut before the answer went: never the route.
    if ("status" in res) expect(res.status).toBe(413);
    else expect(res.error).toMatch(/socket hang up|ECONNRESET|EPIPE/);
    expect(echoed).toBe(before);
  });
});
