import { validateTriggers } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS } from "./helpers/app.js";

const TRIGGERS = validateTriggers([
  { flock: "alpha", trigger: "contact_created", action: "send-json-webhook", url: "https://example.org/a", comment: "CRM" },
  { flock: "alpha", trigger: "contact_created", action: "send-webhook", url: "https://example.org/b", active: false },
  { flock: "alpha", trigger: "lapsed_90d", action: "send-json-webhook", url: "https://example.org/c" },
  { flock: "beta", trigger: "login", action: "send-json-webhook", url: "https://example.org/d" },
]).triggers;

describe("GET /api/v1/{flock}/triggers/", () => {
  it("serves the flock's triggers keyed by trigger name, in the spec's shape", async () => {
    const t = await createTestApp({ triggers: TRIGGERS });
    for (const path of ["/api/v1/alpha/triggers/", "/api/v1/alpha/triggers"]) {
      const res = await t.call("GET", path, { key: KEYS.alice });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        contact_created: [
          { trigger: "contact_created", action: "send-json-webhook", template: "", url: "https://example.org/a", active: true, comment: "CRM" },
          { trigger: "contact_created", action: "send-webhook", template: "", url: "https://example.org/b", active: false, comment: "" },
        ],
        lapsed_90d: [{ trigger: "lapsed_90d", action: "send-json-webhook", template: "", url: "https://example.org/c", active: true, comment: "" }],
      });
    }
    expect(await (await t.call("GET", "/api/v1/beta/triggers/", { key: KEYS.admin })).json()).toEqual({
      login: [{ trigger: "login", action: "send-json-webhook", template: "", url: "https://example.org/d", active: true, comment: "" }],
    });
  });

  it("answers {} without triggers, and refuses missing keys, other flocks, writes", async () => {
    const t = await createTestApp();
    expect(await (await t.call("GET", "/api/v1/alpha/triggers/", { key: KEYS.alice })).json()).toEqual({});
    expect((await t.call("GET", "/api/v1/alpha/triggers/")).status).toBe(401);
    expect((await t.call("GET", "/api/v1/beta/triggers/", { key: KEYS.alice })).status).toBe(403);
    expect((await t.call("GET", "/api/v1/nope/triggers/", { key: KEYS.admin })).status).toBe(404);
    expect((await t.call("GET", "/api/v1/alpha/triggers/", { key: KEYS.member })).status).toBe(403);
    const post = await t.call("POST", "/api/v1/alpha/triggers/", { key: KEYS.alice, json: { trigger: "login" } });
    expect(post.status).toBeGreaterThanOrEqual(400);
    expect(post.status).toBeLessThan(500);
  });
});

describe("GET /api/v1/{flock}/triggers/: webhook URLs (issue 15)", () => {
  const SECRET_URL = "https://hook-user:hook-pass@hooks.example.org/in/alpha?token=s3cr3t&sig=xyz#frag";
  const triggers = validateTriggers([
    { flock: "alpha", trigger: "contact_created", action: "send-json-webhook", url: SECRET_URL },
    { flock: "alpha", trigger: "login", action: "send-json-webhook", url: "https://hooks.example.org/plain" },
  ]).triggers;

  it("a core key of the flock sees them without credentials or query string", async () => {
    const t = await createTestApp({ triggers });
    for (const key of [KEYS.alice, KEYS.carol]) {
      const res = await t.call("GET", "/api/v1/alpha/triggers/", { key });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({
        contact_created: [{ url: "https://***@hooks.example.org/in/alpha?***#***" }],
        login: [{ url: "https://hooks.example.org/plain" }],
      });
      for (const secret of ["hook-user", "hook-pass", "s3cr3t", "xyz", "frag"]) expect(text).not.toContain(secret);
    }
  });

  it("an administrator key (flocks [\"*\"]) sees them whole", async () => {
    const t = await createTestApp({ triggers });
    const res = await t.call("GET", "/api/v1/alpha/triggers/", { key: KEYS.admin });
    expect(await res.json()).toMatchObject({ contact_created: [{ url: SECRET_URL }], login: [{ url: "https://hooks.example.org/plain" }] });
  });
});

describe("GET /api/v1/{flock}/outbox/", () => {
  it("lists the flock's jobs newest first for administrator keys, filtered by status", async () => {
    const t = await createTestApp({ triggers: TRIGGERS });
    const ada = await t.engine.create("alpha", "person", { first_name: "Ada" });
    await t.engine.create("beta", "person", { first_name: "Bob" });
    const res = await t.call("GET", "/api/v1/alpha/outbox/", { key: KEYS.admin });
    expect(res.status).toBe(200);
    const { jobs } = (await res.json()) as { jobs: Record<string, unknown>[] };
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      trigger: "contact_created",
      action: "send-json-webhook",
      status: "pending",
      attempts: 0,
      next_attempt_at: "2026-01-15T10:00:00.000000",
      first_attempt_at: null,
      last_error: null,
      last_status: null,
    });
    expect(jobs[0]!.delivery_id).toBe(jobs[0]!.id);
    expect(String(jobs[0]!.data_event)).toMatch(/^\/alpha\/data_event\/[0-9a-f]{24}\/$/);
    expect(ada.id).toMatch(/^[0-9a-f]{24}$/);
    expect(await (await t.call("GET", "/api/v1/alpha/outbox/?status=dead", { key: KEYS.admin })).json()).toEqual({ jobs: [] });
    expect(((await (await t.call("GET", "/api/v1/alpha/outbox/?status=pending&limit=1", { key: KEYS.admin })).json()) as { jobs: unknown[] }).jobs).toHaveLength(1);
  });

  it("refuses staff keys (403), bad status and limit (400)", async () => {
    const t = await createTestApp();
    const staff = await t.call("GET", "/api/v1/alpha/outbox/", { key: KEYS.alice });
    expect(staff.status).toBe(403);
    expect(await staff.json()).toMatchObject({ error: "forbidden" });
    for (const q of ["status=failed", "limit=0", "limit=1001", "limit=abc", "limit=1.5"]) {
      const res = await t.call("GET", `/api/v1/alpha/outbox/?${q}`, { key: KEYS.admin });
      expect(res.status, q).toBe(400);
      expect(Object.keys((await res.json()) as object).sort()).toEqual(["error", "error_detail"]);
    }
  });
});
