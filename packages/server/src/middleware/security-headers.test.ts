import { connect } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../http/env.js";
import { CONSOLE_CSP, createSecurityHeaders, isConsolePath, securedJson } from "./security-headers.js";

describe("isConsolePath", () => {
  it.each([
    { path: "/", expected: true },
    { path: "/console", expected: true },
    { path: "/console/", expected: true },
    { path: "/console/assets/index-abc.js", expected: true },
    { path: "/consolex", expected: false },
    { path: "/api/v1/console/", expected: false },
    { path: "/api/docs", expected: false },
  ])("$path: $expected", ({ path, expected }) => {
    expect(isConsolePath(path)).toBe(expected);
  });
});

describe("createSecurityHeaders", () => {
  const app = new Hono({ strict: false });
  app.use(createSecurityHeaders());
  app.get("/console/x", (c) => c.text("x", 200, { "Content-Security-Policy": "default-src *", "X-Frame-Options": "SAMEORIGIN" }));
  app.get("/api/own", (c) => c.text("own", 200, { "X-Frame-Options": "SAMEORIGIN" }));
  app.get("/api/boom", () => {
    throw new Error("boom");
  });

  it("replaces what a console route set", async () => {
    const res = await app.request("/console/x");
    expect(res.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("keeps what another route set and adds what it did not, errors included", async () => {
    const own = await app.request("/api/own");
    expect(own.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(own.headers.get("x-content-type-options")).toBe("nosniff");
    const boom = await app.request("/api/boom");
    expect(boom.status).toBe(500);
    expect(boom.headers.get("x-frame-options")).toBe("DENY");
    expect(boom.headers.get("referrer-policy")).toBeNull();
  });
});

describe("securedJson", () => {
  // The same routes answered both ways: through `c.body` and this middleware, and with the
  // final plain headers (`finalHeaders`), served by @hono/node-server as the CLI serves them.
  const build = (final: boolean) => {
    const app = new Hono<AppEnv>({ strict: false });
    app.use(createSecurityHeaders());
    app.use(async (c, next) => {
      if (final) c.set("finalHeaders", true);
      await next();
    });
    app.get("/api/record", (c) => securedJson(c, '{"a":"é"}', '"3"') ?? c.body('{"a":"é"}', 200, { "Content-Type": "application/json", ETag: '"3"' }));
    app.get("/api/list", (c) => securedJson(c, '{"count":0}') ?? c.body('{"count":0}', 200, { "Content-Type": "application/json" }));
    app.get("/console/list", (c) => securedJson(c, "[]") ?? c.body("[]", 200, { "Content-Type": "application/json" }));
    return app;
  };

  it("answers byte for byte as c.body followed by the middleware (GET and HEAD, console paths too)", async () => {
    const servers = await Promise.all([false, true].map((final) => _listen(build(final))));
    try {
      for (const [method, path] of [["GET", "/api/record"], ["GET", "/api/list"], ["HEAD", "/api/record"], ["GET", "/console/list"]] as const) {
        const [plain, secured] = await Promise.all(servers.map((s) => _raw(s.port, method, path)));
        expect(secured).toBe(plain);
        if (method === "GET") expect(secured).toContain("x-frame-options: DENY\r\n");
      }
      expect(await _raw(servers[1]!.port, "GET", "/api/record")).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: application\/json\r\netag: "3"\r\nx-content-type-options: nosniff\r\nx-frame-options: DENY\r\nContent-Length: 10\r\n/);
    } finally {
      for (const s of servers) s.close();
    }
  });

  it("builds nothing unless the answer is final, for GET only", async () => {
    const app = new Hono<AppEnv>();
    const seen: boolean[] = [];
    app.use(async (c, next) => {
      if (c.req.header("final")) c.set("finalHeaders", true);
      await next();
    });
    app.on(["GET", "POST"], "/x", (c) => (seen.push(securedJson(c, "{}") !== undefined), c.body("{}")));
    await app.request("/x");
    await app.request("/x", { headers: { final: "1" } });
    await app.request("/x", { method: "POST", headers: { final: "1" } });
    expect(seen).toEqual([false, true, false]);
  });
});

/** Serves `app` on a free port of 127.0.0.1. */
async function _listen(app: Hono<AppEnv>): Promise<{ port: number; close(): void }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve({ port: info.port, close: () => server.close() }));
  });
}

/** The raw answer to one request on a new connection, without its Date line. */
async function _raw(port: number, method: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.end(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    socket.on("data", (b: Buffer) => chunks.push(b));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8").replace(/\r\nDate: [^\r]*/, "")));
  });
}
