/**
 * End to end on PostgreSQL, the account and secret commands of issue 15 with the real CLI
 * in child processes: `user revoke` ends a running server's keys and a member's sessions
 * at once (another process's commit), `webhook-secret` prints the key the server signs
 * deliveries with (its secret generated in PostgreSQL), failed logins through two servers
 * on one database add up to one lockout, and a copied SQLite file's accounts (staff keys
 * with their lifetimes, member accounts, the secret) keep working on PostgreSQL.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, describe, expect, inject, it } from "vitest";
import { killAll, runCliToEnd, startCli, type CliProcess } from "../e2e/spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-pg-accounts-"));
const databases: TestDatabase[] = [];
const receivers: Server[] = [];

/** A fresh database; `url` carries a password (the local server ignores it) that must never be printed. */
async function freshDatabase(): Promise<{ db: TestDatabase; url: string }> {
  const db = await createTestDatabase();
  databases.push(db);
  const u = new URL(db.url);
  u.password = "s3cret-pw";
  return { db, url: u.toString() };
}

async function serve(db: string, ...args: string[]): Promise<{ p: CliProcess; url: string }> {
  const p = startCli(["serve", "--port", "0", "--db", db, "--quiet", ...args]);
  const line = await p.line(/listening on http:\/\//, 30_000);
  return { p, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

async function stop(p: CliProcess): Promise<void> {
  p.child.kill("SIGTERM");
  expect(await p.exited(15_000)).toBe(0);
}

async function call(base: string, method: string, path: string, opts: { key?: string; json?: unknown } = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      application: "e2e/pg-accounts/1",
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.json !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const staffLogin = (base: string, username: string, password: string) => call(base, "POST", "/api/v1/auth/", { json: { username, password } });
const memberLogin = (base: string, flock: string, email: string, password: string) =>
  call(base, "POST", `/api/v1/${flock}/user/auth/`, { json: { email, password } });

/** `method path` with `key` until it answers `want` (at most two seconds), then its status. */
async function statusWithin(base: string, path: string, key: string, want: number): Promise<number> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const { status } = await call(base, "GET", path, { key });
    if (status === want || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 30));
  }
}

afterAll(async () => {
  killAll();
  for (const r of receivers) r.close();
  for (const db of databases) await db.drop();
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!inject("pgAvailable"))("accounts and secrets on PostgreSQL", { timeout: 120_000 }, () => {
  it("user revoke ends a running server's keys and a member's sessions at once; a new password too", async () => {
    const { url } = await freshDatabase();
    expect((await runCliToEnd(["flock", "add", "club", "--db", url])).code).toBe(0);
    expect((await runCliToEnd(["user", "add", "ada", "--password", "a long secret", "--flock", "club"], { DATABASE_URL: url })).code).toBe(0);
    const { p, url: base } = await serve(url);
    const keys = [(await staffLogin(base, "ada", "a long secret")).body.api_key, (await staffLogin(base, "ada", "a long secret")).body.api_key];
    for (const key of keys) expect((await call(base, "GET", "/api/v1/", { key })).status).toBe(200);
    expect((await call(base, "POST", "/api/v1/club/user/", { key: keys[0], json: { email: "m@example.org", password: "member secret" } })).status).toBe(201);
    expect((await call(base, "POST", "/api/v1/club/person/", { key: keys[0], json: { first_name: "Mo", email: ["m@example.org"] } })).status).toBe(201);
    const session = (await memberLogin(base, "club", "m@example.org", "member secret")).body.bearer_token as string;
    const own = "/api/v2/selfservice/club/reservations/";
    expect((await call(base, "GET", own, { key: session })).status).toBe(200);

    expect(await runCliToEnd(["user", "revoke", "ADA", "--db", url])).toMatchObject({
      code: 0,
      stderr: [],
      stdout: ['revoked 2 keys and sessions of user "ada"'],
    });
    for (const key of keys) expect(await statusWithin(base, "/api/v1/", key, 401)).toBe(401);
    expect((await call(base, "GET", own, { key: session })).status).toBe(200); // a member is another account
    expect(await runCliToEnd(["user", "revoke", "m@example.org", "--flock", "club"], { DATABASE_URL: url })).toMatchObject({
      code: 0,
      stdout: ['revoked 1 key or session of self-service user "m@example.org" of flock club'],
    });
    expect(await statusWithin(base, own, session, 401)).toBe(401);

    const unknown = await runCliToEnd(["user", "revoke", "nobody", "--db", url]);
    expect(unknown).toMatchObject({ code: 1, stdout: [] });
    expect(unknown.stderr).toEqual([expect.stringMatching(/^records-service user revoke: unknown user "nobody" in postgres:\/\/postgres:\*\*\*@/)]);

    const next = (await staffLogin(base, "ada", "a long secret")).body.api_key as string;
    expect(await runCliToEnd(["user", "add", "ada", "--password", "a new long secret", "--flock", "club", "--db", url])).toMatchObject({
      code: 0,
      stdout: ['replaced core user "ada" with access to flock club; revoked 1 key or session'],
    });
    expect(await statusWithin(base, "/api/v1/", next, 401)).toBe(401);
    expect((await staffLogin(base, "ada", "a new long secret")).status).toBe(200);
    await stop(p);
  });

  it("webhook-secret prints the key the server signs deliveries with (its secret made in PostgreSQL)", async () => {
    const { url } = await freshDatabase();
    const got: { headers: IncomingMessage["headers"]; body: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end("ok");
      });
    });
    receivers.push(receiver);
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const config = join(tmp, "webhooks.json");
    writeFileSync(
      config,
      JSON.stringify({
        flocks: [{ identifier: "demo", name: "Demo" }],
        users: [{ username: "ada@example.org", password: "pw-for-e2e", flocks: ["demo"] }],
        triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` }],
        scheduler: { cron: "* * * * * *" },
        webhooks: { allowInsecureUrls: true, allowPrivateTargets: true, firstRetryDelayMs: 200, retryWindowHours: 1 },
      }),
    );
    const { p, url: base } = await serve(url, "--config", config);
    const key = (await staffLogin(base, "ada@example.org", "pw-for-e2e")).body.api_key as string;
    expect((await call(base, "POST", "/api/v1/demo/person/", { key, json: { first_name: "Ada" } })).status).toBe(201);
    const deadline = Date.now() + 15_000;
    while (got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(got).toHaveLength(1);

    const printed = await runCliToEnd(["webhook-secret", "demo"], { DATABASE_URL: url });
    expect(printed).toMatchObject({ code: 0, stderr: [] });
    expect(printed.stdout).toEqual([expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)]);
    const secret = Buffer.from(printed.stdout[0]!.replace(/^whsec_/, ""), "base64");
    const d = got[0]!;
    expect(d.headers["x-records-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(d.body).digest("hex")}`);
    const signed = `${String(d.headers["webhook-id"])}.${String(d.headers["webhook-timestamp"])}.${d.body}`;
    expect(d.headers["webhook-signature"]).toBe(`v1,${createHmac("sha256", secret).update(signed).digest("base64")}`);

    const ghost = await runCliToEnd(["webhook-secret", "ghost", "--db", url]);
    expect(ghost).toMatchObject({ code: 1, stdout: [] });
    expect(ghost.stderr).toEqual([expect.stringMatching(/^records-service webhook-secret: there is no flock "ghost" \(in postgres:\/\/postgres:\*\*\*@/)]);
    await stop(p);
  });

  it("failed logins through two servers on one database add up: the fifth locks the account at both", async () => {
    const { url } = await freshDatabase();
    await runCliToEnd(["flock", "add", "club", "--db", url]);
    await runCliToEnd(["user", "add", "ada", "--password", "a long secret", "--flock", "club", "--db", url]);
    const [a, b] = await Promise.all([serve(url), serve(url)]);
    for (let i = 0; i < 5; i++) expect((await staffLogin(i % 2 === 0 ? a.url : b.url, "ada", `wrong ${i}`)).status).toBe(403);
    for (const s of [a, b]) {
      const locked = await staffLogin(s.url, "ada", "a long secret");
      expect(locked.status).toBe(429);
      expect(locked.body.error).toBe("too many failed logins");
    }
    await Promise.all([stop(a.p), stop(b.p)]);
  });

  it("copy: staff keys with their lifetimes, member accounts and the secret keep working on PostgreSQL", async () => {
    const { db, url } = await freshDatabase();
    const file = join(tmp, "copy", "records.db");
    await runCliToEnd(["flock", "add", "club", "--db", file]);
    await runCliToEnd(["user", "add", "ada", "--password", "a long secret", "--flock", "club", "--db", file]);
    const sqlite = await serve(file);
    const key = (await staffLogin(sqlite.url, "ada", "a long secret")).body.api_key as string;
    expect((await call(sqlite.url, "POST", "/api/v1/club/user/", { key, json: { email: "m@example.org", password: "member secret" } })).status).toBe(201);
    const person = await call(sqlite.url, "POST", "/api/v1/club/person/", { key, json: { first_name: "Mo", email: ["m@example.org"] } });
    const member = await call(sqlite.url, "POST", "/api/v1/club/member/", { key, json: { member: person.body.uri, membership_number: "7" } });
    const memberId = (member.body.uri as string).split("/")[3]!;
    const session = (await memberLogin(sqlite.url, "club", "m@example.org", "member secret")).body.bearer_token as string;
    await stop(sqlite.p);

    const copy = await runCliToEnd(["copy", "--from", file, "--to", url]);
    expect(copy.code).toBe(0);
    expect(copy.stdout[0]).toMatch(/^copied 1 flocks, 2 users, 2 keys, \d+ settings, /);
    expect(copy.stdout.at(-1)).toBe("every count matches");
    const expires = await db.pool.query<{ username: string; expires: string | null }>("SELECT username, expires FROM api_keys ORDER BY username");
    expect(expires.rows.map((r) => r.username)).toEqual(["ada", "club m@example.org"]);
    for (const r of expires.rows) expect(r.expires).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await db.pool.query("SELECT count(*)::int AS n FROM limits")).rows[0].n).toBe(0); // login counters stay behind

    const pg = await serve(url);
    expect((await call(pg.url, "GET", "/api/v1/club/", { key })).status).toBe(200);
    expect((await call(pg.url, "GET", "/api/v2/selfservice/club/reservations/", { key: session })).status).toBe(200);
    const again = await memberLogin(pg.url, "club", "m@example.org", "member secret");
    expect(again.status).toBe(201);
    expect((await call(pg.url, "GET", "/api/v2/selfservice/club/reservations/", { key: again.body.bearer_token })).status).toBe(200);
    // Member credentials stay refused at the staff login, as on the file.
    expect((await staffLogin(pg.url, "m@example.org", "member secret")).status).toBe(403);
    await stop(pg.p);

    // The secret moved: both databases derive the same keys.
    for (const args of [["webhook-secret", "club"], ["card-url", "club", memberId]]) {
      const [fromFile, fromPg] = await Promise.all([runCliToEnd([...args, "--db", file]), runCliToEnd([...args, "--db", url])]);
      expect(fromFile.code).toBe(0);
      expect(fromPg).toEqual(fromFile);
    }
  });
});
