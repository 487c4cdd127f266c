/**
 * The spec's authentication and discovery tables, plus ping/health and the access log.
 */
import type { Storage } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, PASSWORD, seed } from "./helpers/app.js";

describe("POST /api/v1/auth/", () => {
  const form = new URLSearchParams({ username: "alice", password: PASSWORD });
  const multipart = () => {
    const f = new FormData();
    f.set("username", "alice");
    f.set("password", PASSWORD);
    return f;
  };

  it.each([
    ["JSON", "/api/v1/auth/", { json: { username: "alice", password: PASSWORD } }],
    ["JSON without trailing slash", "/api/v1/auth", { json: { username: "alice", password: PASSWORD } }],
    ["JSON, username in another case", "/api/v1/auth/", { json: { username: " ALICE", password: PASSWORD } }],
    ["form-encoded", "/api/v1/auth/", { body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } }],
    ["multipart form", "/api/v1/auth/", { body: multipart() }],
  ])("issues a working key for credentials sent as %s", async (_name, path, opts) => {
    const t = await createTestApp();
    const res = await t.call("POST", path, opts);
    expect(res.status).toBe(200);
    const { api_key } = (await res.json()) as { api_key: string };
    expect(api_key).toMatch(/^[0-9a-f]{64}$/);
    const flocks = await t.call("GET", "/api/v1/", { key: api_key });
    expect(flocks.status).toBe(200);
    expect(await flocks.json()).toEqual({ flocks: [{ identifier: "alpha", name: "Alpha Society" }] });
  });

  it.each([
    ["wrong password", { username: "alice", password: "wrong" }],
    ["unknown user", { username: "nobody", password: PASSWORD }],
  ])("answers 403 with the spec's message for a %s (same body either way)", async (_name, json) => {
    const t = await createTestApp();
    const res = await t.call("POST", "/api/v1/auth/", { json });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: "invalid credentials",
      error_detail: "username and password do not match an account",
    });
  });

  it.each([
    ["no body", {}],
    ["missing password", { json: { username: "alice" } }],
    ["missing username", { json: { password: PASSWORD } }],
    ["empty strings", { json: { username: "", password: "" } }],
    ["password as a number", { json: { username: "alice", password: 12345 } }],
    ["invalid JSON", { body: "{username:", headers: { "content-type": "application/json" } }],
    ["a JSON array", { json: ["alice", PASSWORD] }],
    ["text/plain", { body: `username=alice&password=${PASSWORD}`, headers: { "content-type": "text/plain" } }],
    ["broken multipart", { body: "--x\r\nnonsense", headers: { "content-type": "multipart/form-data; boundary=x" } }],
  ])("answers 400 for %s", async (_name, opts) => {
    const t = await createTestApp();
    const res = await t.call("POST", "/api/v1/auth/", opts);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["error", "error_detail"]);
  });
});

describe("ping and health", () => {
  it.each(["/api/v1/ping/", "/api/v1/ping"])("GET %s answers pong without a key", async (path) => {
    const t = await createTestApp();
    const res = await t.call("GET", path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "pong" });
  });

  it.each(["/api/v1/health/", "/api/v1/health"])("GET %s answers ok without a key", async (path) => {
    const t = await createTestApp();
    const res = await t.call("GET", path);
    expect(res.status).toBe(200);
    // The contract's {"message": "ok"}, with what runs where beside it (test/metrics.test.ts).
    expect(await res.json()).toEqual({ message: "ok", database: { reachable: true }, process: { pid: process.pid, workers: [] }, leases: [] });
  });

  it("health answers 503 when storage fails", async () => {
    const t = await createTestApp();
    const failing = t.storage as Storage;
    failing.getSetting = async () => {
      throw new Error("disk I/O error");
    };
    const res = await t.call("GET", "/api/v1/health/");
    expect(res.status).toBe(503);
    const body = JSON.stringify(await res.json());
    expect(body).not.toContain("disk I/O");
  });
});

describe("authentication of core paths", () => {
  const paths = ["/api/v1/", "/api/v1/alpha/", "/api/v1/alpha/person/", "/api/v1/alpha/person/000000000000000000000001/"];

  it.each([
    ["no Authorization header", {}],
    ["an unknown key", { authorization: `Bearer ${"9".repeat(64)}` }],
    ["an expired key", { authorization: `Bearer ${KEYS.expired}` }],
    ["Basic instead of Bearer", { authorization: `Basic ${Buffer.from("alice:pw").toString("base64")}` }],
    ["Bearer without a key", { authorization: "Bearer " }],
    ["the key without the scheme", { authorization: KEYS.alice }],
    ["a huge key", { authorization: `Bearer ${"a".repeat(100_000)}` }],
  ])("answers 401 for %s on every core path", async (_name, headers) => {
    const t = await createTestApp();
    for (const path of paths) {
      const res = await t.call("GET", path, { headers });
      expect(res.status, path).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(Object.keys((await res.json()) as object).sort()).toEqual(["error", "error_detail"]);
    }
  });

  it("accepts the scheme in any case", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/api/v1/", { headers: { authorization: `bearer ${KEYS.alice}` } });
    expect(res.status).toBe(200);
  });

  it("answers 401 when the key's user was removed", async () => {
    const t = await createTestApp();
    const { hashToken } = await import("../src/auth/tokens.js");
    await t.storage.putApiKey({ tokenHash: hashToken("orphan"), username: "ghost-user", created: "2026-01-01T00:00:00.000000", expires: null });
    expect((await t.call("GET", "/api/v1/", { key: "orphan" })).status).toBe(401);
  });

  it("answers 403 to a self-service token on every core path", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "person", { first_name: "Ada" });
    const calls: [string, string][] = [
      ["GET", "/api/v1/"],
      ["GET", "/api/v1/alpha/"],
      ["GET", "/api/v1/alpha/person/"],
      ["POST", "/api/v1/alpha/person/"],
      ["GET", `/api/v1/alpha/person/${id}/`],
      ["PUT", `/api/v1/alpha/person/${id}/`],
      ["DELETE", `/api/v1/alpha/person/${id}/`],
      ["GET", `/api/v1/alpha/person/${id}/display`],
      ["POST", `/api/v1/alpha/person/${id}/touch/`],
    ];
    for (const [method, path] of calls) {
      const res = await t.call(method, path, { key: KEYS.member, json: { first_name: "Eve" } });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await t.engine.get("alpha", "person", id)).data.first_name).toBe("Ada");
  });
});

describe("GET /api/v1/ (flocks of the key)", () => {
  it.each([
    ["alice (one flock)", KEYS.alice, ["alpha"]],
    ["bob (one flock)", KEYS.bob, ["beta"]],
    ["admin (\"*\": every flock)", KEYS.admin, ["alpha", "beta"]],
    ["carol (a listed flock that does not exist is left out)", KEYS.carol, ["alpha"]],
  ])("lists the flocks of %s", async (_name, key, expected) => {
    const t = await createTestApp();
    for (const path of ["/api/v1/", "/api/v1"]) {
      const res = await t.call("GET", path, { key });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { flocks: { identifier: string; name: string }[] };
      expect(body.flocks.map((f) => f.identifier)).toEqual(expected);
      for (const f of body.flocks) expect(Object.keys(f).sort()).toEqual(["identifier", "name"]);
    }
  });
});

describe("GET /api/v1/{flock}/ (resource types)", () => {
  it("summarizes the flock's types: name, count of records not deleted, last_modified", async () => {
    const t = await createTestApp();
    await seed(t, "alpha", "person", { first_name: "Ada" });
    t.clock.advance(1000);
    const gone = await seed(t, "alpha", "person", { first_name: "Bea" });
    await seed(t, "alpha", "journal", { title: "note" });
    await seed(t, "beta", "membership", { membership_number: "1" });
    t.clock.advance(1000);
    await t.engine.delete("alpha", "person", gone);

    const res = await t.call("GET", "/api/v1/alpha/", { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource_type: [
        // contact_created of each person (data events are records too).
        { name: "data_event", count: 2, last_modified: "2026-01-15T10:00:01.000000" },
        { name: "journal", count: 1, last_modified: "2026-01-15T10:00:01.000000" },
        { name: "person", count: 1, last_modified: "2026-01-15T10:00:02.000000" },
      ],
    });
  });

  it.each([
    ["alice, own flock", KEYS.alice, "alpha", 200],
    ["alice, own flock without trailing slash", KEYS.alice, "alpha", 200],
    ["alice, another tenant's flock", KEYS.alice, "beta", 403],
    ["alice, a flock that does not exist (404 for every key)", KEYS.alice, "ghost", 404],
    ["carol, a listed flock that does not exist", KEYS.carol, "ghost", 404],
    ["admin, any flock", KEYS.admin, "beta", 200],
    ["admin, a flock that does not exist", KEYS.admin, "ghost", 404],
  ])("%s", async (_name, key, flock, status) => {
    const t = await createTestApp();
    const res = await t.call("GET", `/api/v1/${flock}/`, { key });
    expect(res.status).toBe(status);
  });
});

describe("access log", () => {
  it("writes one line per request with time, method, path, status, duration and application", async () => {
    const t = await createTestApp();
    await t.call("GET", "/api/v1/ping/", { headers: { APPLICATION: "Acme/Sync/1.2" } });
    await t.call("GET", "/api/v1/alpha/?first_name=secret", { key: KEYS.bob });
    expect(t.logs).toHaveLength(2);
    expect(t.logs[0]).toMatchObject({
      time: "2026-01-15T10:00:00.000Z",
      method: "GET",
      path: "/api/v1/ping/",
      status: 200,
      application: "Acme/Sync/1.2",
    });
    expect(typeof t.logs[0]!.duration_ms).toBe("number");
    expect(t.logs[1]).toMatchObject({ path: "/api/v1/alpha/", status: 403, application: null });
    expect(JSON.stringify(t.logs)).not.toContain("secret");
  });
});
