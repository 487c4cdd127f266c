/**
 * Issue 21, point 3 (P1): the hosted member-account calls under `/api/v1/{flock}/user/`:
 * `preauth/`, `?email=`, `{username}/` and `{username}/person/`, on every adapter. No
 * answer ever carries a password hash (every JSON answer of the suite is searched).
 */
import { formatTimestamp } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { KEYS, PASSWORD, seed, type TestApp } from "../helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "../helpers/every-adapter.js";
import { snapshot } from "../helpers/snapshot.js";

/** Every key path of a JSON value whose name or text looks like a secret. */
function secrets(value: unknown, path = "$"): string[] {
  if (typeof value === "string") return /scrypt\$|\$2[aby]\$|argon2/i.test(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => secrets(v, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [...(/hash|salt|crypt|password/i.test(k) ? [`${path}.${k}`] : []), ...secrets(v, `${path}.${k}`)]);
  }
  return [];
}

describe.each(EVERY_ADAPTER)("member accounts on %s", (name) => {
  const setup = setupOn(name);
  const run = it.skipIf(!adapterAvailable(name));
  let answers: unknown[] = [];
  const call = async (t: TestApp, method: string, path: string, opts: Parameters<TestApp["call"]>[2] = {}) => {
    const res = await t.call(method, path, opts);
    const body = (res.headers.get("content-type") ?? "").includes("json") ? ((await res.json()) as any) : await res.text();
    answers.push(body);
    return { status: res.status, body, headers: res.headers };
  };
  const get = (t: TestApp, path: string, key?: string) => call(t, "GET", path, key ? { key } : {});
  const login = (t: TestApp, password = PASSWORD) => call(t, "POST", "/api/v1/alpha/user/auth/", { json: { email: "member@example.org", password } });
  /** The member's person (two persons share the address: the earliest created is theirs). */
  const person = async (t: TestApp) => {
    const id = await seed(t, "alpha", "person", { first_name: "Mia", last_name: "Member", email: ["Member@Example.org;home"], tags: ["volunteer"] });
    await seed(t, "alpha", "person", { first_name: "Later", last_name: "Duplicate", email: ["member@example.org"] });
    return id;
  };
  const noSecrets = () => {
    expect(answers.length).toBeGreaterThan(3);
    expect(answers.flatMap((a) => secrets(a))).toEqual([]);
    answers = [];
  };

  it("the secret search finds hash fields and hash texts (so the suite's checks can fail)", () => {
    expect(secrets({ a: [{ passwordHash: "x" }], crypt: 1, b: "scrypt$16$1$1$abc", c: { salt: null } })).toEqual(["$.a[0].passwordHash", "$.crypt", "$.b", "$.c.salt"]);
    expect(secrets({ email: "ada@example.org", next_step: "password" })).toEqual([]);
  });

  run("preauth: an existing account's email, username, status and next step, from the query, JSON or a form; nothing more", async () => {
    const t = await setup();
    await person(t);
    const expected = { email: "member@example.org", username: "member@example.org", status: "active", next_step: "password" };
    for (const opts of [
      { json: { email: "Member@Example.org", quick: true } },
      { body: "email=member%40example.org&quick=1", headers: { "content-type": "application/x-www-form-urlencoded" } },
      { key: KEYS.bob, json: { email: "member@example.org" } }, // a key sent is ignored
    ]) {
      const res = await call(t, "POST", "/api/v1/alpha/user/preauth/", opts);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
    }
    expect((await call(t, "POST", "/api/v1/alpha/user/preauth?email=member@example.org")).body).toEqual(expected);
    noSecrets();
  });

  run("preauth: 404 for no account (another flock's, a staff account), 400 for a missing or malformed email, 404 for an unknown flock", async () => {
    const t = await setup();
    const before = await snapshot(t.storage);
    for (const [path, json, status, error] of [
      ["/api/v1/alpha/user/preauth/", { email: "nobody@example.org" }, 404, "no account"],
      ["/api/v1/beta/user/preauth/", { email: "member@example.org" }, 404, "no account"],
      ["/api/v1/alpha/user/preauth/", { email: "alice" }, 400, "invalid email"],
      ["/api/v1/alpha/user/preauth/", {}, 400, "missing email"],
      ["/api/v1/alpha/user/preauth/", { email: "" }, 400, "missing email"],
      ["/api/v1/alpha/user/preauth/", { email: "two words@example.org" }, 400, "invalid email"],
      ["/api/v1/nowhere/user/preauth/", { email: "member@example.org" }, 404, "unknown flock"],
    ] as const) {
      const res = await call(t, "POST", path, { json });
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(Object.keys(res.body).sort()).toEqual(["error", "error_detail"]);
      expect(res.body.error).toBe(error);
    }
    const bad = await call(t, "POST", "/api/v1/alpha/user/preauth/", { body: "{", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(await snapshot(t.storage)).toBe(before);
    noSecrets();
  });

  run("preauth is throttled like a login: unknown emails count as failures; a locked account reads blocked", async () => {
    const t = await setup();
    // Five failed logins lock the member's account for this address: preauth says so.
    for (let i = 0; i < 5; i++) expect((await login(t, "wrong password")).status).toBe(403);
    expect((await login(t)).status).toBe(429);
    expect((await call(t, "POST", "/api/v1/alpha/user/preauth/", { json: { email: "member@example.org" } })).body).toEqual({
      email: "member@example.org",
      username: "member@example.org",
      status: "blocked",
      next_step: "blocked",
    });
    // The lock ends with time.
    t.clock.advance(2 * 60_000);
    expect((await call(t, "POST", "/api/v1/alpha/user/preauth/", { json: { email: "member@example.org" } })).body.status).toBe("active");
    // One unknown email asked about again and again is refused like repeated failed logins.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await call(t, "POST", "/api/v1/alpha/user/preauth/", { json: { email: "ghost@example.org" } })).status);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Many unknown emails lock the address: then every email gets the same 429, known or not.
    for (let i = 0; i < 30; i++) await call(t, "POST", "/api/v1/alpha/user/preauth/", { json: { email: `probe${i}@example.org` } });
    const known = await call(t, "POST", "/api/v1/alpha/user/preauth/", { json: { email: "member@example.org" } });
    const unknown = await call(t, "POST", "/api/v1/alpha/user/preauth/", { json: { email: "other@example.org" } });
    expect([known.status, unknown.status]).toEqual([429, 429]);
    expect(known.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(known.body.error).toBe(unknown.body.error);
    noSecrets();
  });

  run("user/?email=: a core key reads the account, its person, last login and open session", async () => {
    const t = await setup();
    const path = "/api/v1/alpha/user/?email=Member@Example.org";
    const bare = await get(t, path, KEYS.alice);
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual({ email: "member@example.org", username: "member@example.org", status: "active", first_name: null, last_name: null, person: null, last_login_date: null, session_expiry: null });
    const mia = await person(t);
    t.clock.advance(60_000);
    const loggedInAt = formatTimestamp(t.clock.now());
    const session = await login(t);
    expect(session.status).toBe(201);
    t.clock.advance(60_000);
    const res = await get(t, path.replace("/?", "?"), KEYS.alice);
    expect(res.body).toEqual({
      email: "member@example.org",
      username: "member@example.org",
      status: "active",
      first_name: "Mia",
      last_name: "Member",
      person: `/alpha/person/${mia}/`,
      last_login_date: loggedInAt,
      session_expiry: session.body.session_expiry,
    });
    // Logging out closes the session; an expired one is not open either.
    await call(t, "DELETE", "/api/v1/alpha/user/auth/", { key: session.body.bearer_token });
    expect((await get(t, path, KEYS.alice)).body).toMatchObject({ session_expiry: null, last_login_date: loggedInAt });
    noSecrets();
  });

  run("user/?email=: refused before reading for other keys; 400 without an email; 404 for no account", async () => {
    const t = await setup();
    await person(t);
    const path = "/api/v1/alpha/user/?email=member@example.org";
    expect((await get(t, path, KEYS.alice)).status).toBe(200); // the positive control
    expect((await get(t, path, KEYS.admin)).status).toBe(200);
    const before = await snapshot(t.storage);
    expect((await get(t, path, KEYS.member)).status).toBe(403);
    expect((await get(t, path, KEYS.bob)).status).toBe(403);
    expect((await get(t, path)).status).toBe(401);
    expect((await get(t, path, KEYS.expired)).status).toBe(401);
    expect((await get(t, path.replace("alpha", "nowhere"), KEYS.admin)).status).toBe(404);
    expect((await get(t, "/api/v1/alpha/user/", KEYS.alice)).body.error).toBe("missing email");
    expect((await get(t, "/api/v1/alpha/user/?email=not-an-email", KEYS.alice)).status).toBe(400);
    expect((await get(t, "/api/v1/alpha/user/?email=nobody@example.org", KEYS.alice)).status).toBe(404);
    expect((await get(t, "/api/v1/beta/user/?email=member@example.org", KEYS.bob)).status).toBe(404);
    expect(await snapshot(t.storage)).toBe(before);
    noSecrets();
  });

  run("user/{username}/ and /person/: the member's own token or a core key; another member's or an unknown username is 404", async () => {
    const t = await setup();
    const mia = await person(t);
    const uri = `/alpha/person/${mia}/`;
    const expectedPerson = { first_name: "Mia", last_name: "Member", email: ["Member@Example.org;home"], tags: ["volunteer"], uri, display_value: "Mia Member" };
    const own = await get(t, "/api/v1/alpha/user/member@example.org/", KEYS.member);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ email: "member@example.org", username: "member@example.org", first_name: "Mia", last_name: "Member", session_expiry: null });
    expect(own.body.person).toMatchObject(expectedPerson);
    // A session with an expiry: that session's.
    const session = await login(t);
    const mine = await get(t, "/api/v1/alpha/user/Member%40Example.org", session.body.bearer_token);
    expect(mine.body.session_expiry).toBe(session.body.session_expiry);
    const byCore = await get(t, "/api/v1/alpha/user/member@example.org/", KEYS.alice);
    expect(byCore.body).toMatchObject({ email: "member@example.org", session_expiry: session.body.session_expiry, person: expectedPerson });
    for (const key of [KEYS.member, KEYS.alice]) {
      const p = await get(t, "/api/v1/alpha/user/member@example.org/person/", key);
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject(expectedPerson);
      expect(p.body).not.toHaveProperty("person");
    }
    // Another member's account exists, yet a member token cannot see it.
    expect((await call(t, "POST", "/api/v1/alpha/user/", { key: KEYS.alice, json: { email: "other@example.org", password: "another long password" } })).status).toBe(201);
    expect((await get(t, "/api/v1/alpha/user/other@example.org/", KEYS.alice)).status).toBe(200);
    expect((await get(t, "/api/v1/alpha/user/other@example.org/", KEYS.member)).status).toBe(404);
    expect((await get(t, "/api/v1/alpha/user/other@example.org/person/", KEYS.member)).status).toBe(404);
    // No person for that account: null, and the person path is 404.
    expect((await get(t, "/api/v1/alpha/user/other@example.org/", KEYS.alice)).body.person).toBeNull();
    expect((await get(t, "/api/v1/alpha/user/other@example.org/person/", KEYS.alice)).status).toBe(404);
    // A deleted person is no person.
    await t.engine.delete("alpha", "person", mia);
    const dup = await get(t, "/api/v1/alpha/user/member@example.org/person/", KEYS.member);
    expect(dup.body).toMatchObject({ first_name: "Later", last_name: "Duplicate" });
    noSecrets();
  });

  run("user/{username}/: refused before reading for other flocks' keys; 404 for unknown names, staff names and unknown flocks", async () => {
    const t = await setup();
    await person(t);
    const path = "/api/v1/alpha/user/member@example.org/";
    expect((await get(t, path, KEYS.alice)).status).toBe(200); // the positive control
    const before = await snapshot(t.storage);
    expect((await get(t, path, KEYS.bob)).status).toBe(403);
    expect((await get(t, path)).status).toBe(401);
    expect((await get(t, path.replace("alpha", "beta"), KEYS.member)).status).toBe(403);
    expect((await get(t, path.replace("alpha", "nowhere"), KEYS.admin)).status).toBe(404);
    for (const name of ["nobody@example.org", "alice", "two%20words"]) {
      const res = await get(t, `/api/v1/alpha/user/${name}/`, KEYS.alice);
      expect(res.status, name).toBe(404);
      expect(res.body.error).toBe("no account");
    }
    // user/membership keeps its meaning.
    expect((await get(t, "/api/v1/alpha/user/membership/?email=member@example.org", KEYS.alice)).status).toBe(200);
    expect(await snapshot(t.storage)).toBe(before);
    noSecrets();
  });
});
