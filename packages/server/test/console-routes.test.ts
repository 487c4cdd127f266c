/**
 * The console's server side through `app.request()`: `/` and `/console` lead to the app,
 * index.html is revalidated and hashed assets are immutable; a missing build says so; every
 * console answer (404s, 405s and throttled ones included) carries the strict CSP and the
 * framing and referrer headers, every API answer nosniff and DENY; the member card link and
 * the outbox's "retry now" follow the key rules.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFakeClock, createMemoryStorage, createRecordEngine, createSequentialIds } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { createTestApp, KEYS, seed } from "./helpers/app.js";

function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), "console-dist-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>');
  writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log('hi')");
  return dir;
}

const appWith = (consoleDist: string, unattributedPerMinute?: number) =>
  createApp({
    engine: createRecordEngine({ storage: createMemoryStorage(), clock: createFakeClock(), ids: createSequentialIds() }),
    consoleDist,
    ...(unattributedPerMinute !== undefined ? { settings: { throttle: { unattributedPerMinute } } } : {}),
  });

/** The directives of a Content-Security-Policy header, by name. */
function directives(csp: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (csp ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name] = values.join(" ");
  }
  return out;
}

/** Asserts the console's headers on `res`, naming `what` when one is wrong. */
function expectConsoleHeaders(res: Response, what: string): void {
  const csp = directives(res.headers.get("content-security-policy"));
  expect(csp, what).toEqual({
    "default-src": "'none'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
  });
  expect(res.headers.get("x-frame-options"), what).toBe("DENY");
  expect(res.headers.get("referrer-policy"), what).toBe("no-referrer");
  expect(res.headers.get("cross-origin-opener-policy"), what).toBe("same-origin");
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
}

describe("console routes", () => {
  it("/ redirects to /console/, which serves index.html with no-cache", async () => {
    const app = appWith(fakeDist());
    const root = await app.request("/");
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/console/");
    expect((await app.request("/console")).headers.get("location")).toBe("/console/");
    const page = await app.request("/console/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(await page.text()).toContain("/console/assets/index-abc123.js");
  });

  it("serves hashed assets as immutable, and 404s what is not there in the v1 shape", async () => {
    const app = appWith(fakeDist());
    const asset = await app.request("/console/assets/index-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const missing = await app.request("/console/assets/nope.js");
    expect(missing.status).toBe(404);
    expect(Object.keys((await missing.json()) as object).sort()).toEqual(["error", "error_detail"]);
    expect((await app.request("/console/../package.json")).status).toBe(404);
  });

  it("without a build, says how to build it", async () => {
    const app = appWith(mkdtempSync(join(tmpdir(), "console-empty-")));
    const page = await app.request("/console/");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("npm run build");
  });

  it("serves the real build when it exists (the root prepare builds it)", async () => {
    const t = await createTestApp();
    const page = await t.call("GET", "/console/");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="app">/);
  });
});

describe("console security headers", () => {
  it.each([
    { method: "GET", path: "/", status: 302 },
    { method: "GET", path: "/console", status: 301 },
    { method: "GET", path: "/console/", status: 200 },
    { method: "GET", path: "/console/index.html", status: 200 },
    { method: "HEAD", path: "/console/", status: 200 },
    { method: "GET", path: "/console/assets/index-abc123.js", status: 200 },
    { method: "GET", path: "/console/assets/nope.js", status: 404 },
    { method: "GET", path: "/console/nope", status: 404 },
    { method: "GET", path: "/console/assets/", status: 404 },
    { method: "GET", path: "/console/%E0%A4%A", status: 404 },
    { method: "POST", path: "/console/", status: 405 },
    { method: "DELETE", path: "/console/assets/index-abc123.js", status: 405 },
  ])("$method $path ($status) carries the CSP, DENY and no-referrer", async ({ method, path, status }) => {
    const res = await appWith(fakeDist()).request(path, { method });
    expect(res.status).toBe(status);
    expectConsoleHeaders(res, `${method} ${path}`);
  });

  it("the page the browser runs has no inline script or style the policy would block", async () => {
    const t = await createTestApp();
    const page = await t.call("GET", "/console/");
    expectConsoleHeaders(page, "the real build");
    const html = await page.text();
    // Every script is an external module of this origin; no inline script, handler or style.
    for (const tag of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) expect(tag).toMatch(/^<script\b[^>]*\bsrc="\/console\/assets\/[^"]+"[^>]*><\/script>$/);
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|javascript:/i);
    for (const src of html.match(/(?:src|href)="[^"]+"/g) ?? []) {
      const url = src.slice(src.indexOf('"') + 1, -1);
      const asset = await t.call("GET", url);
      expect(asset.status, url).toBe(200);
      expectConsoleHeaders(asset, url);
    }
  });

  it("without a build, the page saying so carries them too", async () => {
    const res = await appWith(mkdtempSync(join(tmpdir(), "console-empty-"))).request("/console/");
    expect(res.status).toBe(200);
    expectConsoleHeaders(res, "no build");
  });

  it("a throttled console request (429) carries them too", async () => {
    const app = appWith(fakeDist(), 1);
    expect((await app.request("/console/")).status).toBe(200);
    const refused = await app.request("/console/");
    expect(refused.status).toBe(429);
    expectConsoleHeaders(refused, "429");
  });

  it.each([
    { path: "/api/v1/ping/", status: 200 },
    { path: "/api/v1/alpha/person/", status: 401 },
    { path: "/api/v1/no/such/path/here/", status: 404 },
    { path: "/consolex", status: 404 },
  ])("an API answer ($path, $status) carries nosniff and DENY, without the console's policy", async ({ path, status }) => {
    const t = await createTestApp();
    const res = await t.call("GET", path);
    expect(res.status).toBe(status);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toBeNull();
  });

  it("a route's own policy is kept (the API reference page)", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/api/docs");
    expect(res.status).toBe(200);
    expect(directives(res.headers.get("content-security-policy"))["frame-ancestors"]).toBe("'none'");
    expect(directives(res.headers.get("content-security-policy"))["style-src"]).toContain("'unsafe-inline'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("GET /api/v1/{flock}/member/{id}/card_url/", () => {
  it("gives a core key of the flock the signed card link on the request's origin", async () => {
    const t = await createTestApp();
    const person = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const member = await seed(t, "alpha", "member", { member: `/alpha/person/${person}/` });
    const res = await t.call("GET", `http://records.test/api/v1/alpha/member/${member}/card_url/`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^http://records\\.test/api/v2/alpha/member/${member}/card/\\?signature=[0-9a-f]{64}$`));
    expect((await t.call("GET", url.replace("http://records.test", ""))).status).toBe(200);
  });

  it.each([
    { name: "another flock's key", key: KEYS.bob, id: "member", status: 403 },
    { name: "a self-service token", key: KEYS.member, id: "member", status: 403 },
    { name: "no such member", key: KEYS.alice, id: "0123456789abcdef01234567", status: 404 },
    { name: "not an id", key: KEYS.alice, id: "x", status: 404 },
  ])("refuses $name ($status)", async ({ key, id, status }) => {
    const t = await createTestApp();
    const member = await seed(t, "alpha", "member", { membership_number: "1" });
    const res = await t.call("GET", `/api/v1/alpha/member/${id === "member" ? member : id}/card_url/`, { key });
    expect(res.status).toBe(status);
  });
});

describe("POST /api/v1/{flock}/outbox/{id}/retry/", () => {
  const hook = { flock: "alpha", trigger: "contact_created", event: "created", variation: null, action: "send-json-webhook", url: "https://example.org/h", template: null, active: true, comment: "", conditionalTemplates: [] };

  it("makes a dead job due now, for administrators only", async () => {
    const t = await createTestApp({ triggers: [hook as never] });
    await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const [job] = await t.storage.listJobs({ flock: "alpha" });
    expect(job).toBeDefined();
    const claim = { token: "test-claim-token-0001", until: "2026-01-15T10:00:30.000000" };
    expect(await t.storage.claimDueJobs(job!.nextAttemptAt, 10, claim)).toHaveLength(1);
    await t.storage.finishJob(job!.id, claim.token, { status: "dead", attempts: 9, nextAttemptAt: job!.nextAttemptAt, firstAttemptAt: job!.created, lastError: "HTTP 500", lastStatus: 500 });
    expect((await t.call("POST", `/api/v1/alpha/outbox/${job!.id}/retry/`, { key: KEYS.alice })).status).toBe(403);
    t.clock.advance(60_000);
    const res = await t.call("POST", `/api/v1/alpha/outbox/${job!.id}/retry/`, { key: KEYS.admin });
    expect(res.status).toBe(200);
    const [after] = await t.storage.listJobs({ flock: "alpha" });
    expect(after).toMatchObject({ status: "pending", attempts: 9, nextAttemptAt: "2026-01-15T10:01:00.000000", lastError: "HTTP 500" });
    expect(await t.storage.claimDueJobs("2026-01-15T10:01:00.000000", 10, { token: "test-claim-token-0002", until: "2026-01-15T10:02:00.000000" })).toHaveLength(1);
    expect((await t.call("POST", `/api/v1/alpha/outbox/0123456789abcdef01234567/retry/`, { key: KEYS.admin })).status).toBe(404);
    expect((await t.call("POST", `/api/v1/beta/outbox/${job!.id}/retry/`, { key: KEYS.admin })).status).toBe(404);
    // Claimed just now by a worker: the attempt decides, a retry changes nothing (409).
    const held = await t.call("POST", `/api/v1/alpha/outbox/${job!.id}/retry/`, { key: KEYS.admin });
    expect(held.status).toBe(409);
    expect((await t.storage.listJobs({ flock: "alpha" }))[0]).toMatchObject({ status: "pending", claimedUntil: "2026-01-15T10:02:00.000000" });
  });
});
