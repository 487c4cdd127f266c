/**
 * Issue 15, accounts and logins: each finding of the review as an HTTP regression test.
 * Members' accounts live in their flock's own namespace, so a member account can never
 * become, block or reveal a core account; keys and sessions have lifetimes and end when
 * the password changes; login failures are counted in the database whatever the request
 * looks like; passwords are rehashed at the current cost.
 */
import { createMemoryStorage, createRecordEngine, type Storage } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { createUser } from "../src/auth/accounts.js";
import { createPasswordHasher, hashPassword } from "../src/auth/passwords.js";
import { hashToken } from "../src/auth/tokens.js";
import { createTestApp, KEYS, PASSWORD, TEST_PASSWORD_COST, type TestApp } from "./helpers/app.js";
import { createV2TestApp } from "./helpers/v2-app.js";

const passwords = createPasswordHasher(TEST_PASSWORD_COST);
const JSON_HEADERS = { "content-type": "application/json" };
const MEMBER_PASSWORD = "the member's own password";
const ADMIN_PASSWORD = "the administrator's password";

async function coreLogin(t: TestApp, username: string, password: string) {
  const res = await t.call("POST", "/api/v1/auth/", { json: { username, password } });
  const body = (await res.json()) as { api_key?: string };
  return { status: res.status, key: body.api_key };
}

async function memberLogin(t: TestApp, flock: string, email: string, password: string) {
  const res = await t.call("POST", `/api/v1/${flock}/user/auth/`, { json: { email, password } });
  const body = (await res.json()) as { bearer_token?: string };
  return { status: res.status, token: body.bearer_token };
}

const createMember = (t: TestApp, key: string, flock: string, email: string, password = MEMBER_PASSWORD) =>
  t.call("POST", `/api/v1/${flock}/user/`, { key, json: { email, password } });

describe("a member account can never become or share keys with a core account", () => {
  it("a username pre-registered as a member before an operator gives it to an administrator gains nothing", async () => {
    const t = await createTestApp();
    // alice, staff of alpha only, registers the address the operator will give an admin.
    expect((await createMember(t, KEYS.alice, "alpha", "root@example.org")).status).toBe(201);
    const session = await memberLogin(t, "alpha", "root@example.org", MEMBER_PASSWORD);
    expect(session.status).toBe(201);
    // The member's credentials are no staff credentials.
    expect((await coreLogin(t, "root@example.org", MEMBER_PASSWORD)).status).toBe(403);

    await createUser(t.storage, t.clock, { username: "root@example.org", password: ADMIN_PASSWORD, flocks: ["*"] }, passwords);
    // The member session stays a member session of alpha: no core path, no other flock.
    expect((await t.call("GET", "/api/v1/", { key: session.token })).status).toBe(403);
    expect((await t.call("GET", "/api/v1/beta/person/", { key: session.token })).status).toBe(403);
    expect((await coreLogin(t, "root@example.org", MEMBER_PASSWORD)).status).toBe(403);
    // The administrator is a different account with its own password and keys.
    const admin = await coreLogin(t, "root@example.org", ADMIN_PASSWORD);
    expect(admin.status).toBe(200);
    expect((await t.call("GET", "/api/v1/beta/person/", { key: admin.key })).status).toBe(200);
    expect((await memberLogin(t, "alpha", "root@example.org", ADMIN_PASSWORD)).status).toBe(403);
  });

  it("registering a member with an administrator's email neither fails (409) nor touches the administrator", async () => {
    const t = await createTestApp();
    await createUser(t.storage, t.clock, { username: "root@example.org", password: ADMIN_PASSWORD, flocks: ["*"] }, passwords);
    const admin = await coreLogin(t, "root@example.org", ADMIN_PASSWORD);
    const before = await t.storage.getUser("root@example.org");
    expect((await createMember(t, KEYS.alice, "alpha", "ROOT@example.org")).status).toBe(201);
    expect(await t.storage.getUser("root@example.org")).toEqual(before);
    expect((await t.call("GET", "/api/v1/beta/", { key: admin.key })).status).toBe(200);
    expect((await coreLogin(t, "root@example.org", ADMIN_PASSWORD)).status).toBe(200);
  });

  it("self-service credentials at POST /api/v1/auth/ are refused with 403, even as the stored account key", async () => {
    const t = await createTestApp();
    await createMember(t, KEYS.alice, "alpha", "ada@example.org");
    for (const username of ["ada@example.org", "alpha ada@example.org"]) {
      const res = await t.call("POST", "/api/v1/auth/", { json: { username, password: MEMBER_PASSWORD } });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "invalid credentials" });
    }
  });

  it.each([
    { name: "a member-role row under a core username", username: "mallory", role: "self-service" as const, path: "/api/v2/selfservice/alpha/reservations/" },
    { name: "a core-role row under a member account key", username: "alpha mallory@example.org", role: "core" as const, path: "/api/v1/" },
  ])("a key of $name (a row out of its namespace) is never trusted: 401", async ({ username, role, path }) => {
    const t = await createTestApp();
    await t.storage.putUser({ username, passwordHash: "x", flocks: ["alpha"], role, created: "x" });
    await t.storage.putApiKey({ tokenHash: hashToken("m".repeat(64)), username, created: "x", expires: null });
    expect((await t.call("GET", path, { key: "m".repeat(64) })).status).toBe(401);
  });

  it("a staff login is refused on the member path of its own flock", async () => {
    const t = await createTestApp();
    expect((await memberLogin(t, "alpha", "alice", PASSWORD)).status).toBe(403);
  });
});

describe("creating a member in flock B reveals nothing outside B and cannot block another flock", () => {
  it.each([
    { name: "a member of another flock", setup: (t: TestApp) => createMember(t, KEYS.alice, "alpha", "ada@example.org") },
    {
      name: "a staff user",
      setup: (t: TestApp) => createUser(t.storage, t.clock, { username: "ada@example.org", password: PASSWORD, flocks: ["alpha"] }, passwords),
    },
    {
      name: "an administrator",
      setup: (t: TestApp) => createUser(t.storage, t.clock, { username: "ada@example.org", password: PASSWORD, flocks: ["*"] }, passwords),
    },
  ])("201, not 409, when the email belongs to $name", async ({ setup }) => {
    const t = await createTestApp();
    await setup(t);
    const res = await createMember(t, KEYS.bob, "beta", "ada@example.org", "beta's own password");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ email: "ada@example.org", status: "created", username: "ada@example.org" });
  });

  it("409 only for a member account of that email in the same flock", async () => {
    const t = await createTestApp();
    await createMember(t, KEYS.bob, "beta", "ada@example.org");
    const res = await createMember(t, KEYS.bob, "beta", "Ada@Example.org", "another password");
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "existing user account found" });
  });

  it("the same email in two flocks is two accounts: each password opens only its own flock", async () => {
    const t = await createTestApp();
    await createMember(t, KEYS.alice, "alpha", "ada@example.org", "alpha's password");
    await createMember(t, KEYS.bob, "beta", "ada@example.org", "beta's password");
    expect((await memberLogin(t, "alpha", "ada@example.org", "alpha's password")).status).toBe(201);
    expect((await memberLogin(t, "beta", "ada@example.org", "beta's password")).status).toBe(201);
    expect((await memberLogin(t, "beta", "ada@example.org", "alpha's password")).status).toBe(403);
    const alphaSession = await memberLogin(t, "alpha", "ada@example.org", "alpha's password");
    expect((await t.call("GET", "/api/v2/selfservice/beta/reservations/", { key: alphaSession.token })).status).toBe(403);
  });
});

describe("keys and sessions have lifetimes and end with the password", () => {
  it("a core key lasts auth.keyTtlHours (default 720 h), then answers 401", async () => {
    for (const [ttlHours, options] of [[720, {}], [2, { settings: { auth: { keyTtlHours: 2 } } }]] as const) {
      const t = await createTestApp(options);
      const { key } = await coreLogin(t, "alice", PASSWORD);
      t.clock.advance(ttlHours * 3_600_000 - 1000);
      expect((await t.call("GET", "/api/v1/", { key })).status).toBe(200);
      t.clock.advance(1000);
      const res = await t.call("GET", "/api/v1/", { key });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error_detail: expect.stringContaining("expired") });
    }
  });

  it("a new password ends every key and session of the user; the same password ends none", async () => {
    const t = await createTestApp();
    const keep = await coreLogin(t, "alice", PASSWORD);
    await createUser(t.storage, t.clock, { username: "alice", password: PASSWORD, flocks: ["alpha"] }, passwords);
    expect((await t.call("GET", "/api/v1/", { key: keep.key })).status).toBe(200);
    expect((await t.call("GET", "/api/v1/", { key: KEYS.alice })).status).toBe(200);

    await createUser(t.storage, t.clock, { username: "alice", password: "alice's new password", flocks: ["alpha"] }, passwords);
    for (const key of [keep.key, KEYS.alice]) expect((await t.call("GET", "/api/v1/", { key })).status).toBe(401);
    expect((await t.call("GET", "/api/v1/", { key: KEYS.bob })).status).toBe(200);
    expect((await coreLogin(t, "alice", PASSWORD)).status).toBe(403);
    expect((await coreLogin(t, "alice", "alice's new password")).status).toBe(200);
  });

  it("a key issued while the password changed does not survive the change", async () => {
    const t = await createTestApp();
    // The password changes (revoking alice's keys) after the old one was checked, just
    // before the new key is stored.
    const issued: string[] = [];
    const storage: Storage = {
      ...t.storage,
      putApiKey: async (k) => {
        await createUser(t.storage, t.clock, { username: "alice", password: "changed meanwhile", flocks: ["alpha"] }, passwords);
        issued.push(k.tokenHash);
        await t.storage.putApiKey(k);
      },
    };
    const engine = createRecordEngine({ storage, clock: t.clock });
    const app = createApp({ engine, passwordCost: TEST_PASSWORD_COST });
    const res = await app.request("/api/v1/auth/", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ username: "alice", password: PASSWORD }) });
    expect(res.status).toBe(403);
    expect(issued).toHaveLength(1);
    expect(await t.storage.getApiKey(issued[0]!)).toBeUndefined();
  });
});

describe("login protection that cannot be flushed", () => {
  it("an overlong password is a failure like any other: five lock the account", async () => {
    const t = await createTestApp();
    for (let i = 0; i < 5; i++) {
      const res = await t.call("POST", "/api/v1/auth/", { json: { username: "alice", password: PASSWORD + "x".repeat(2000) } });
      expect(res.status).toBe(403);
    }
    expect((await coreLogin(t, "alice", PASSWORD)).status).toBe(429);
  });

  it("failures are limited with an APPLICATION header too: one address spraying many accounts is locked", async () => {
    const t = await createV2TestApp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await t.call("POST", "/api/v1/auth/", { json: { username: `guess${i}@example.org`, password: "Winter2026!" } });
      statuses.push(res.status);
      expect(res.headers.get("x-rate-limit-limit")).toBeNull(); // attributed: not throttled
    }
    expect(statuses.slice(0, 30).every((s) => s === 403)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await t.call("POST", "/api/v1/auth/", { json: { username: "alice", password: PASSWORD } })).status).toBe(429);
  });

  it("a made-up Bearer token per login does not buy a fresh throttle window", async () => {
    const t = await createV2TestApp({ settings: { throttle: { unattributedPerMinute: 3 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.call("POST", "/api/v1/auth/", {
        headers: { application: "", authorization: `Bearer ${String(i).repeat(64)}` },
        json: { username: "alice", password: PASSWORD },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("a lockout lives in the database: a second process on the same storage refuses too", async () => {
    const t = await createTestApp();
    for (let i = 0; i < 5; i++) await coreLogin(t, "alice", "wrong password");
    const other = createApp({ engine: t.engine, passwordCost: TEST_PASSWORD_COST });
    const res = await other.request("/api/v1/auth/", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ username: "alice", password: PASSWORD }) });
    expect(res.status).toBe(429);
  });
});

describe("passwords", () => {
  it("a login with the right password rehashes a hash of another cost, and keeps the user's keys", async () => {
    const storage = createMemoryStorage();
    const t = await createTestApp({ storage });
    await storage.putUser({ ...(await storage.getUser("alice"))!, passwordHash: await hashPassword(PASSWORD, { N: 8, r: 1, p: 1 }) });
    expect((await coreLogin(t, "alice", PASSWORD)).status).toBe(200);
    expect((await storage.getUser("alice"))!.passwordHash).toMatch(/^scrypt\$16\$1\$1\$/);
    expect((await t.call("GET", "/api/v1/", { key: KEYS.alice })).status).toBe(200);
    expect((await coreLogin(t, "alice", PASSWORD)).status).toBe(200);
  });

  it("a wrong password rehashes nothing", async () => {
    const storage = createMemoryStorage();
    const t = await createTestApp({ storage });
    const old = await hashPassword(PASSWORD, { N: 8, r: 1, p: 1 });
    await storage.putUser({ ...(await storage.getUser("alice"))!, passwordHash: old });
    expect((await coreLogin(t, "alice", "wrong password")).status).toBe(403);
    expect((await storage.getUser("alice"))!.passwordHash).toBe(old);
  });

  it("members choose passwords of at least 8 characters, naming the rule", async () => {
    const t = await createTestApp();
    const res = await createMember(t, KEYS.alice, "alpha", "ada@example.org", "1234567");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid password", error_detail: expect.stringContaining("minimum password length is 8") });
    expect(await t.storage.getApiKey(hashToken(KEYS.alice))).toBeDefined();
  });
});
