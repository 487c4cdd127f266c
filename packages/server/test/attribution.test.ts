/**
 * The APPLICATION header: attribution in the access log and the per-application counts,
 * and the throttle of unattributed calls (fake clock): per key, the window resets,
 * attributed calls pass, malformed headers are unattributed with a Warning.
 */
import { describe, expect, it } from "vitest";
import { KEYS } from "./helpers/app.js";
import { createV2TestApp, unattributed } from "./helpers/v2-app.js";

const LIMIT = 3;
const PATH = "/api/v1/alpha/person/";

async function setup() {
  return createV2TestApp({ settings: { throttle: { unattributedPerMinute: LIMIT } } });
}

describe("throttling unattributed requests", () => {
  it("allows the limit per key, then 429 with Retry-After; every response carries x-rate-limit-*", async () => {
    const t = await setup();
    const seen: [number, string | null, string | null, string | null][] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      t.clock.advance(1000);
      const res = await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
      seen.push([res.status, res.headers.get("x-rate-limit-limit"), res.headers.get("x-rate-limit-remaining"), res.headers.get("x-rate-limit-reset")]);
    }
    expect(seen).toEqual([
      [200, "3", "2", "60"],
      [200, "3", "1", "59"],
      [200, "3", "0", "58"],
      [429, "3", "0", "57"],
    ]);
    const refused = await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("57");
    expect(await refused.json()).toEqual({ error: "too many requests", error_detail: expect.stringContaining("APPLICATION") });
  });

  it("holds per key: another key has its own window", async () => {
    const t = await setup();
    for (let i = 0; i < LIMIT; i++) await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    expect((await t.call("GET", PATH, unattributed({ key: KEYS.alice }))).status).toBe(429);
    expect((await t.call("GET", PATH, unattributed({ key: KEYS.carol }))).status).toBe(200);
  });

  it("resets when the window has passed", async () => {
    const t = await setup();
    for (let i = 0; i < LIMIT; i++) await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    t.clock.advance(59_999);
    expect((await t.call("GET", PATH, unattributed({ key: KEYS.alice }))).status).toBe(429);
    t.clock.advance(1);
    const res = await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-rate-limit-remaining")).toBe(String(LIMIT - 1));
  });

  it("lets attributed calls pass, without rate-limit headers, even when the key is throttled", async () => {
    const t = await setup();
    for (let i = 0; i < LIMIT; i++) await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    expect((await t.call("GET", PATH, unattributed({ key: KEYS.alice }))).status).toBe(429);
    for (let i = 0; i < 10; i++) {
      const res = await t.call("GET", PATH, { key: KEYS.alice });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-rate-limit-limit")).toBeNull();
    }
  });

  it("treats a malformed header as unattributed and says why in a Warning header", async () => {
    const t = await setup();
    const res = await t.call("GET", PATH, { key: KEYS.alice, headers: { application: "Acme/Sync" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("warning")).toBe(
      '299 records-service "APPLICATION header ignored: it has 2 parts instead of 3; expected <Organisation>/<Application>/<Version>"',
    );
    expect(res.headers.get("x-rate-limit-remaining")).toBe(String(LIMIT - 1));
    const missing = await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    expect(missing.headers.get("warning")).toBeNull();
    expect(missing.headers.get("x-rate-limit-remaining")).toBe(String(LIMIT - 2));
  });

  it("throttles the v2 and self-service paths too, answering in the v2 shape", async () => {
    const t = await setup();
    for (let i = 0; i < LIMIT; i++) await t.call("GET", "/api/v2/alpha/person/", unattributed({ key: KEYS.alice }));
    const res = await t.call("GET", "/api/v2/alpha/person/", unattributed({ key: KEYS.alice }));
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ title: "too many requests" });
  });

  it("throttles requests without a key per client address (logins), but never ping, health or signed cards", async () => {
    const t = await setup();
    for (let i = 0; i < LIMIT; i++) await t.call("POST", "/api/v1/auth/", unattributed({ json: { username: "nobody", password: "x" } }));
    const login = await t.call("POST", "/api/v1/auth/", unattributed({ json: { username: "alice", password: "x" } }));
    expect(login.status).toBe(429);
    for (let i = 0; i < 2 * LIMIT; i++) {
      for (const path of ["/api/v1/ping/", "/api/v1/health", "/api/v2/alpha/member/0123456789abcdef01234567/card/"]) {
        const res = await t.call("GET", path, unattributed());
        expect(res.status).not.toBe(429);
        expect(res.headers.get("x-rate-limit-limit")).toBeNull();
      }
    }
  });
});

describe("attribution", () => {
  it("records the application label (or null) in the access log", async () => {
    const t = await setup();
    await t.call("GET", PATH, { key: KEYS.alice, headers: { application: " Acme / Sync / 2.0 " } });
    await t.call("GET", PATH, { key: KEYS.alice, headers: { application: "not/valid" } });
    await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    expect(t.logs.slice(-3).map((l) => l.application)).toEqual(["Acme/Sync/2.0", null, null]);
  });

  it("labels each request by its own header, however many distinct values came before (the parse is remembered per value)", async () => {
    const t = await setup();
    const sent: (string | null)[] = [];
    const seen: (string | null)[] = [];
    for (let i = 0; i < 300; i++) {
      // Past the remembered values' bound, well-formed and malformed values alternate.
      const value = i % 3 === 2 ? `bad-${i % 280}` : ` Acme / Tool${i % 280} / 1.0 `;
      sent.push(i % 3 === 2 ? null : `Acme/Tool${i % 280}/1.0`);
      const res = await t.call("GET", PATH, { key: KEYS.alice, headers: { application: value } });
      seen.push((t.logs.at(-1)!.application as string | null | undefined) ?? null);
      if (i % 3 === 2) expect(res.headers.get("warning")).toContain("has 1 part instead of 3");
      else expect(res.headers.get("warning")).toBeNull();
      t.clock.advance(60_000); // a fresh throttle window, so the malformed ones are not refused
    }
    expect(seen).toEqual(sent);
  });

  it("counts requests per application for administrators at GET /api/v1/_stats/applications/", async () => {
    const t = await setup();
    for (let i = 0; i < 3; i++) await t.call("GET", PATH, { key: KEYS.alice, headers: { application: "Acme/Sync/1" } });
    t.clock.advance(5000);
    await t.call("GET", PATH, { key: KEYS.alice, headers: { application: "Beta/Portal/2" } });
    await t.call("GET", PATH, unattributed({ key: KEYS.alice }));
    const res = await t.call("GET", "/api/v1/_stats/applications/", { key: KEYS.admin, headers: { application: "Ops/Console/1" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      since: "2026-01-15T10:00:00.000000",
      total: 6,
      unattributed: 1,
      applications: [
        { application: "Acme/Sync/1", requests: 3, last_seen: "2026-01-15T10:00:00.000000" },
        { application: "Beta/Portal/2", requests: 1, last_seen: "2026-01-15T10:00:05.000000" },
        { application: "Ops/Console/1", requests: 1, last_seen: "2026-01-15T10:00:05.000000" },
      ],
    });
  });

  it.each([
    { name: "a tenant's key", key: KEYS.alice, status: 403 },
    { name: "a self-service token", key: KEYS.member, status: 403 },
    { name: "no key", key: undefined, status: 401 },
  ])("refuses the statistics to $name", async ({ key, status }) => {
    const t = await setup();
    expect((await t.call("GET", "/api/v1/_stats/applications", { key })).status).toBe(status);
  });
});
