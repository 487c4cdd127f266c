import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { CONSOLE_CSP, createSecurityHeaders, isConsolePath } from "./security-headers.js";

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
