/**
 * Self-service users (contract): created by a core key, logging in for a session that
 * expires, reaching only the self-service paths, logging out. Also the login events and the
 * login guard on both login paths.
 */
import type { StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { KEYS, PASSWORD } from "./helpers/app.js";
import { createV2TestApp, seedPeople, type V2TestApp } from "./helpers/v2-app.js";

const NEW_PASSWORD = "a long member password";

async function createMember(t: V2TestApp, email = "ada@example.org") {
  return t.call("POST", "/api/v1/alpha/user/", { key: KEYS.alice, json: { email, password: NEW_PASSWORD } });
}

async function memberLogin(t: V2TestApp, email = "ada@example.org", password = NEW_PASSWORD, flock = "alpha") {
  return t.call("POST", `/api/v1/${flock}/user/auth/`, { json: { email, password } });
}

async function dataEvents(t: V2TestApp, flock = "alpha"): Promise<StoredRecord[]> {
  return (await t.storage.listRecords(flock, "data_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 100 })).records;
}

describe("POST /api/v1/{flock}/user/", () => {
  it("creates a member account: 201 {email, status: created, username}", async () => {
    const t = await createV2TestApp();
    const res = await createMember(t, " Ada@Example.org ");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ email: "Ada@Example.org", status: "created", username: "ada@example.org" });
    expect(await t.storage.getUser("alpha ada@example.org")).toMatchObject({ role: "self-service", flocks: ["alpha"] });
    expect(await t.storage.getUser("ada@example.org")).toBeUndefined();
  });

  it("answers 409 `existing user account found` when the email has one, and keeps the old password", async () => {
    const t = await createV2TestApp();
    await createMember(t);
    const before = await t.storage.getUser("alpha ada@example.org");
    const res = await t.call("POST", "/api/v1/alpha/user", { key: KEYS.alice, json: { email: "ADA@example.org", password: "another password" } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "existing user account found" });
    expect(await t.storage.getUser("alpha ada@example.org")).toEqual(before);
    const staff = await t.call("POST", "/api/v1/alpha/user/", { key: KEYS.alice, json: { email: "alice", password: NEW_PASSWORD } });
    expect(staff.status).toBe(400); // not an email address: no way to take over a staff username
  });

  it.each([
    { name: "no email", json: { password: NEW_PASSWORD } },
    { name: "an email that is not one", json: { email: "ada", password: NEW_PASSWORD } },
    { name: "an email with a space", json: { email: "ada lovelace@example.org", password: NEW_PASSWORD } },
    { name: "a short password", json: { email: "ada@example.org", password: "short" } },
    { name: "no password", json: { email: "ada@example.org" } },
    { name: "a numeric password", json: { email: "ada@example.org", password: 12345678 } },
  ])("answers 400 for $name and creates nothing", async ({ json }) => {
    const t = await createV2TestApp();
    const res = await t.call("POST", "/api/v1/alpha/user/", { key: KEYS.alice, json });
    expect(res.status).toBe(400);
    expect(await t.storage.getUser("alpha ada@example.org")).toBeUndefined();
  });

  it.each([
    { name: "no key", key: undefined, flock: "alpha", status: 401 },
    { name: "a self-service token", key: KEYS.member, flock: "alpha", status: 403 },
    { name: "another tenant's flock", key: KEYS.alice, flock: "beta", status: 403 },
  ])("answers $status for $name", async ({ key, flock, status }) => {
    const t = await createV2TestApp();
    const res = await t.call("POST", `/api/v1/${flock}/user/`, { key, json: { email: "ada@example.org", password: NEW_PASSWORD } });
    expect(res.status).toBe(status);
    expect(await t.storage.getUser("alpha ada@example.org")).toBeUndefined();
    expect(await t.storage.getUser("beta ada@example.org")).toBeUndefined();
  });
});

describe("POST /api/v1/{flock}/user/auth/", () => {
  it("logs the member in: 201 with a session token, names from the member's person, expiry in 24 h", async () => {
    const t = await createV2TestApp();
    await seedPeople(t); // Ada's person has Member@Example.org
    await t.call("POST", "/api/v1/alpha/user/", { key: KEYS.alice, json: { email: "member2@example.org", password: NEW_PASSWORD } });
    await t.engine.create("alpha", "person", { first_name: "Mary", last_name: "Somerville", email: ["MEMBER2@example.org;work"] });
    const res = await memberLogin(t, "member2@example.org");
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      bearer_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      email: "member2@example.org",
      username: "member2@example.org",
      first_name: "Mary",
      last_name: "Somerville",
      session_expiry: "2026-01-16T10:00:00.000000",
      status: "authenticated",
    });
  });

  it("answers null names when the member has no person yet", async () => {
    const t = await createV2TestApp();
    await createMember(t);
    expect(await (await memberLogin(t)).json()).toMatchObject({ first_name: null, last_name: null });
  });

  it.each([
    { name: "a wrong password", email: "ada@example.org", password: "wrong password", flock: "alpha" },
    { name: "an unknown email", email: "nobody@example.org", password: NEW_PASSWORD, flock: "alpha" },
    { name: "another flock", email: "ada@example.org", password: NEW_PASSWORD, flock: "beta" },
    { name: "a flock that does not exist", email: "ada@example.org", password: NEW_PASSWORD, flock: "ghost" },
    { name: "a staff (core) account", email: "alice", password: PASSWORD, flock: "alpha" },
  ])("answers 403 for $name", async ({ email, password, flock }) => {
    const t = await createV2TestApp();
    await createMember(t);
    const res = await memberLogin(t, email, password, flock);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "invalid credentials" });
  });

  it("answers 400 without email or password", async () => {
    const t = await createV2TestApp();
    expect((await t.call("POST", "/api/v1/alpha/user/auth/", { json: { email: "ada@example.org" } })).status).toBe(400);
    expect((await t.call("POST", "/api/v1/alpha/user/auth/", { json: { username: "ada@example.org", password: "x" } })).status).toBe(400);
  });
});

describe("self-service sessions", () => {
  async function session(t: V2TestApp): Promise<string> {
    await seedPeople(t);
    await createMember(t);
    await t.engine.create("alpha", "person", { first_name: "Ada", email: ["ada@example.org"] });
    return ((await (await memberLogin(t)).json()) as { bearer_token: string }).bearer_token;
  }

  it("reach the self-service paths", async () => {
    const t = await createV2TestApp();
    const token = await session(t);
    for (const path of ["/api/v2/selfservice/alpha/reservations/", "/selfservice/v2/alpha/reservations"]) {
      expect((await t.call("GET", path, { key: token })).status).toBe(200);
    }
  });

  it.each([
    ["GET", "/api/v1/"],
    ["GET", "/api/v1/alpha/"],
    ["GET", "/api/v1/alpha/person/"],
    ["POST", "/api/v1/alpha/person/"],
    ["GET", "/api/v2/alpha/person/"],
    ["POST", "/api/v1/alpha/user/"],
    ["GET", "/api/v2/alpha/person/0123456789abcdef01234567/avatar"],
  ])("answer 403 on the core path %s %s", async (method, path) => {
    const t = await createV2TestApp();
    const token = await session(t);
    const res = await t.call(method, path, { key: token, json: {} });
    expect(res.status).toBe(403);
  });

  it("expire after 24 hours: 401", async () => {
    const t = await createV2TestApp();
    const token = await session(t);
    t.clock.advance(24 * 3600_000 - 1000);
    expect((await t.call("GET", "/api/v2/selfservice/alpha/reservations/", { key: token })).status).toBe(200);
    t.clock.advance(1000);
    const res = await t.call("GET", "/api/v2/selfservice/alpha/reservations/", { key: token });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ description: expect.stringContaining("expired") });
  });

  it("end with DELETE on the login path: the token stops working", async () => {
    const t = await createV2TestApp();
    const token = await session(t);
    const other = ((await (await memberLogin(t)).json()) as { bearer_token: string }).bearer_token;
    const res = await t.call("DELETE", "/api/v1/alpha/user/auth/", { key: token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "logged out" });
    expect((await t.call("GET", "/api/v2/selfservice/alpha/reservations/", { key: token })).status).toBe(401);
    expect((await t.call("DELETE", "/api/v1/alpha/user/auth", { key: token })).status).toBe(401);
    // Only that session ends.
    expect((await t.call("GET", "/api/v2/selfservice/alpha/reservations/", { key: other })).status).toBe(200);
  });

  it.each([
    { name: "no token", key: undefined, flock: "alpha", status: 401 },
    { name: "a core key (not a session)", key: KEYS.alice, flock: "alpha", status: 403 },
    { name: "another flock", key: KEYS.member, flock: "beta", status: 403 },
  ])("logout answers $status for $name", async ({ key, flock, status }) => {
    const t = await createV2TestApp();
    expect((await t.call("DELETE", `/api/v1/${flock}/user/auth/`, { key })).status).toBe(status);
    expect((await t.call("GET", "/api/v1/", { key: KEYS.alice })).status).toBe(200);
  });
});

describe("login events and the login guard", () => {
  it("records login and failed_login data events in the user's flock, about the user's person", async () => {
    const t = await createV2TestApp();
    const { ada } = await seedPeople(t);
    await t.call("POST", "/api/v1/alpha/user/auth/", { json: { email: "member@example.org", password: "wrong" } });
    await t.call("POST", "/api/v1/alpha/user/auth/", { json: { email: "member@example.org", password: PASSWORD } });
    await t.call("POST", "/api/v1/auth/", { json: { username: "alice", password: PASSWORD } });
    const events = (await dataEvents(t)).map((r) => [r.data.name, r.data.context_ref]);
    expect(events).toEqual(
      expect.arrayContaining([
        ["failed_login", `/alpha/person/${ada}/`],
        ["login", `/alpha/person/${ada}/`],
        ["login", null],
      ]),
    );
    expect(events.filter(([n]) => n === "login" || n === "failed_login")).toHaveLength(3);
    expect(await dataEvents(t, "beta")).toEqual([]);
  });

  it("records nothing for an unknown username or an administrator", async () => {
    const t = await createV2TestApp();
    await t.call("POST", "/api/v1/auth/", { json: { username: "nobody", password: "x" } });
    await t.call("POST", "/api/v1/auth/", { json: { username: "admin", password: PASSWORD } });
    expect(await dataEvents(t)).toEqual([]);
  });

  it("locks a username after 5 failures: 429 + Retry-After, even for the right password, then lets it in", async () => {
    const t = await createV2TestApp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await t.call("POST", "/api/v1/auth/", { json: { username: "alice", password: "wrong" } })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    const locked = await t.call("POST", "/api/v1/auth/", { json: { username: "Alice", password: PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("60");
    expect(await locked.json()).toMatchObject({ error: "too many failed logins" });
    const names = (await dataEvents(t)).map((r) => r.data.name);
    expect(names.filter((n) => n === "failed_login")).toHaveLength(5);
    expect(names.filter((n) => n === "multiple_failed_login")).toHaveLength(1);

    t.clock.advance(60_000);
    expect((await t.call("POST", "/api/v1/auth/", { json: { username: "alice", password: PASSWORD } })).status).toBe(200);
  });

  it("counts each account on its own path: a core username's failures do not lock the member of that email", async () => {
    const t = await createV2TestApp();
    for (let i = 0; i < 5; i++) await t.call("POST", "/api/v1/auth/", { json: { username: "member@example.org", password: "wrong" } });
    expect((await t.call("POST", "/api/v1/auth/", { json: { username: "member@example.org", password: PASSWORD } })).status).toBe(429);
    const res = await t.call("POST", "/api/v1/alpha/user/auth/", { json: { email: "member@example.org", password: PASSWORD } });
    expect(res.status).toBe(201);
  });

  it("shares one guard between the two paths: an address failing over accounts on both is locked on both", async () => {
    const t = await createV2TestApp();
    for (let i = 0; i < 15; i++) {
      await t.call("POST", "/api/v1/auth/", { json: { username: `staff${i}@example.org`, password: "wrong" } });
      await t.call("POST", "/api/v1/alpha/user/auth/", { json: { email: `member${i}@example.org`, password: "wrong" } });
    }
    const res = await t.call("POST", "/api/v1/alpha/user/auth/", { json: { email: "member@example.org", password: PASSWORD } });
    expect(res.status).toBe(429);
    expect((await t.call("POST", "/api/v1/auth/", { json: { username: "alice", password: PASSWORD } })).status).toBe(429);
  });
});
