/**
 * End to end: the real CLI in a child process, a real SQLite file in a temp folder, real
 * HTTP over a socket.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, runCliToEnd, startCli, type CliProcess } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-e2e-"));
let n = 0;
/** A database path in a folder that does not exist yet (serve must create it). */
const freshDb = () => join(tmp, `case-${++n}`, "data", "records.db");

// Tests run concurrently, each on its own database and port; each stops the servers it
// starts, and whatever a failed test left running is killed at the end.
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

async function serve(args: string[], env?: Record<string, string | undefined>): Promise<{ p: CliProcess; url: string }> {
  const p = startCli(["serve", "--port", "0", ...args], env);
  const line = await p.line(/listening on http:\/\//);
  return { p, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

async function credentials(p: CliProcess): Promise<{ username: string; password: string }> {
  const username = /username: (\S+)/.exec(await p.line(/^\s+username: /))![1]!;
  const password = /password: (\S+)/.exec(await p.line(/^\s+password: /))![1]!;
  return { username, password };
}

async function login(url: string, username: string, password: string): Promise<{ status: number; key?: string }> {
  const res = await fetch(`${url}/api/v1/auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { api_key?: string };
  return { status: res.status, ...(body.api_key ? { key: body.api_key } : {}) };
}

/** `GET /api/v1/` with `key` until it answers `want` (at most a second), then its status. */
async function statusWithin(url: string, key: string, want: number): Promise<number> {
  const deadline = Date.now() + 1000;
  for (;;) {
    const status = (await fetch(`${url}/api/v1/`, { headers: { authorization: `Bearer ${key}`, application: "e2e/records-service/1" } })).status;
    if (status === want || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 30));
  }
}

function client(url: string, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, application: "e2e/records-service/1", ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
}

// Every start and login hashes at the shipped scrypt cost (N = 2^17), several servers at
// once on a shared machine: each test gets a minute.
describe.concurrent("records-service serve", () => {
  it("serves the API, logs each request, stops on SIGTERM and keeps the data", async () => {
    const db = freshDb();
    const { p, url } = await serve(["--db", db]);
    const admin = await credentials(p);
    expect(admin.username).toBe("admin");
    expect(admin.password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const { status, key } = await login(url, admin.username, admin.password);
    expect(status).toBe(200);
    const api = client(url, key!);

    const created = await api("POST", "/api/v1/demo/person/", { first_name: "Ada", last_name: "Lovelace", tags: ["vip"] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ first_name: "Ada", last_name: "Lovelace", formatted_name: "Ada Lovelace" });
    const id = created.body.uri.split("/")[3] as string;
    await api("POST", "/api/v1/demo/person/", { first_name: "Charles", last_name: "Babbage" });

    const listed = await api("GET", "/api/v1/demo/person/?last_name=Lovelace");
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((r: { id: string }) => r.id)).toEqual([id]);

    expect((await api("DELETE", `/api/v1/demo/person/${id}/`)).status).toBe(200);
    expect((await api("GET", "/api/v1/demo/person/?last_name=Lovelace")).body.total).toBe(0);
    const withDeleted = await api("GET", "/api/v1/demo/person/?last_name=Lovelace&include_deleted=Y");
    expect(withDeleted.body.results.map((r: { state: string }) => r.state)).toEqual(["deleted"]);
    expect((await api("POST", `/api/v1/demo/person/${id}/restore/`)).status).toBeLessThan(300);
    expect((await api("GET", "/api/v1/demo/person/?tags=vip")).body.total).toBe(1);

    const logLines = p.stdout.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    expect(logLines).toContainEqual(
      expect.objectContaining({ method: "POST", path: "/api/v1/demo/person/", status: 201, application: "e2e/records-service/1" }),
    );
    expect(JSON.stringify(logLines)).not.toContain(admin.password);

    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
    expect(p.stdout).toContain("records-service: stopped");

    // Restart on the same file: no new admin, the old password and the data are still there.
    const again = await serve(["--db", db, "--quiet"]);
    expect(again.p.stdout.join("\n")).not.toContain("password:");
    const relog = await login(again.url, admin.username, admin.password);
    expect(relog.status).toBe(200);
    const people = await client(again.url, relog.key!)("GET", "/api/v1/demo/person/?mode=OR&last_name=Lovelace&last_name=Babbage");
    expect(people.body.total).toBe(2);
    expect(again.p.stdout.some((l) => l.startsWith("{"))).toBe(false);
    again.p.child.kill("SIGINT");
    expect(await again.p.exited()).toBe(0);
  });

  it("applies a config file at start, again without logging anyone out, and a new password ends the old keys", async () => {
    const db = freshDb();
    const config = join(tmp, `config-${++n}.json`);
    const write = (password: string) =>
      writeFileSync(
        config,
        JSON.stringify({
          flocks: [{ identifier: "society", name: "The Society" }],
          users: [{ username: "ada@example.org", password, flocks: ["society"] }],
          webhooks: { allowInsecureUrls: true },
        }),
      );
    write("ada's first password");
    let firstKey: string | undefined;
    for (let run = 0; run < 2; run++) {
      const { p, url } = await serve(["--db", db, "--config", config, "--quiet"]);
      // The config made the database non-empty: no demo flock, no admin.
      expect(p.stdout.join("\n")).not.toContain("password:");
      const { key } = await login(url, "ada@example.org", "ada's first password");
      firstKey ??= key;
      const flocks = await client(url, key!)("GET", "/api/v1/");
      expect(flocks.body.flocks).toEqual([{ identifier: "society", name: "The Society" }]);
      // Applying the same config at the second start kept the first start's key.
      expect((await client(url, firstKey!)("GET", "/api/v1/")).status).toBe(200);
      p.child.kill("SIGTERM");
      expect(await p.exited()).toBe(0);
    }

    write("ada's second password");
    const { p, url } = await serve(["--db", db, "--config", config, "--quiet"]);
    expect((await client(url, firstKey!)("GET", "/api/v1/")).status).toBe(401);
    expect((await login(url, "ada@example.org", "ada's first password")).status).toBe(403);
    expect((await login(url, "ada@example.org", "ada's second password")).status).toBe(200);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it("refuses a config password shorter than 8 characters, naming the rule", async () => {
    const config = join(tmp, `short-${++n}.json`);
    writeFileSync(config, JSON.stringify({ flocks: [{ identifier: "demo" }], users: [{ username: "ada", password: "pw", flocks: ["demo"] }] }));
    const r = await runCliToEnd(["serve", "--db", ":memory:", "--port", "0", "--config", config]);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual(['config: "users[0].password" must be at least 8 characters (the minimum password length)']);
  });

  it("serves :memory: with HOST and PORT from the environment", async () => {
    const { p, url } = await serve(["--db", ":memory:"], { HOST: "127.0.0.1", RECORDS_LOG: "off" });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await credentials(p);
    expect((await fetch(`${url}/api/v1/ping/`)).status).toBe(200);
    expect(p.stdout.some((l) => l.startsWith("{"))).toBe(false);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it("refuses to start with a bad config, naming the key", async () => {
    const config = join(tmp, `bad-${++n}.json`);
    writeFileSync(config, JSON.stringify({ flocks: [{ identifier: "demo", nmae: "Demo" }] }));
    const r = await runCliToEnd(["serve", "--db", ":memory:", "--port", "0", "--config", config]);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual(['config: unknown key "flocks[0].nmae" (accepted: identifier, name)']);
    expect(r.stdout.join("\n")).not.toContain("listening");
  });

  it("fails with one line when the port is taken, and keeps the first-start credentials for a start that works", async () => {
    const { p, url } = await serve(["--db", ":memory:", "--quiet"]);
    const port = new URL(url).port;
    const db = freshDb();
    const r = await runCliToEnd(["serve", "--db", db, "--port", port]);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `records-service: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); stop what listens there or choose another port with --port N (or env PORT)`,
    ]);
    expect(r.stdout.join("\n")).not.toContain("password:");
    const again = await serve(["--db", db, "--quiet"]);
    expect(again.p.stdout.join("\n")).toContain("password:");
    again.p.child.kill("SIGTERM");
    expect(await again.p.exited()).toBe(0);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });
});

describe.concurrent("records-service flock add / user add", () => {
  it("creates a flock and a user who can then log in to it", async () => {
    const db = freshDb();
    const flock = await runCliToEnd(["flock", "add", "club", "--name", "The Club", "--db", db]);
    expect(flock).toMatchObject({ code: 0, stderr: [] });
    expect(await runCliToEnd(["flock", "add", "club", "--db", db])).toMatchObject({
      code: 1,
      stderr: [`flock "club" already exists in ${db}`],
    });
    const user = await runCliToEnd(["user", "add", "Ada@Example.org", "--password", "a long secret", "--flock", "club", "--db", db]);
    expect(user).toMatchObject({ code: 0, stderr: [], stdout: ['created core user "ada@example.org" with access to flock club'] });
    expect(await runCliToEnd(["user", "add", "bob", "--password", "a long secret", "--flock", "nope", "--db", db])).toMatchObject({
      code: 1,
      stderr: [`unknown flock "nope" in ${db}: create it first with records-service flock add nope`],
    });
    expect(await runCliToEnd(["user", "add", "bob", "--password", "1234567", "--flock", "club", "--db", db])).toMatchObject({
      code: 2,
      stderr: ["records-service user add: password must be 8 to 1024 characters (the minimum password length is 8)"],
    });

    const { p, url } = await serve(["--db", db, "--quiet"]);
    // The database had a flock already: no demo flock and no admin.
    expect(p.stdout.join("\n")).not.toContain("password:");
    expect((await login(url, "ada@example.org", "wrong")).status).toBe(403);
    const { key } = await login(url, "ada@example.org", "a long secret");
    const flocks = await client(url, key!)("GET", "/api/v1/");
    expect(flocks.body.flocks).toEqual([{ identifier: "club", name: "The Club" }]);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it("user revoke ends a running server's keys at once; user add with a new password too", async () => {
    const db = freshDb();
    await runCliToEnd(["flock", "add", "club", "--db", db]);
    await runCliToEnd(["user", "add", "ada", "--password", "a long secret", "--flock", "club", "--db", db]);
    const { p, url } = await serve(["--db", db, "--quiet"]);
    const keys = [(await login(url, "ada", "a long secret")).key!, (await login(url, "ada", "a long secret")).key!];
    for (const key of keys) expect((await client(url, key)("GET", "/api/v1/")).status).toBe(200);

    expect(await runCliToEnd(["user", "revoke", "ADA", "--db", db])).toMatchObject({
      code: 0,
      stderr: [],
      stdout: ['revoked 2 keys and sessions of user "ada"'],
    });
    // The server sees another process's commit within 25 ms.
    for (const key of keys) expect(await statusWithin(url, key, 401)).toBe(401);
    expect(await runCliToEnd(["user", "revoke", "nobody", "--db", db])).toMatchObject({
      code: 1,
      stdout: [],
      stderr: [`records-service user revoke: unknown user "nobody" in ${db}`],
    });

    const next = (await login(url, "ada", "a long secret")).key!;
    expect(await runCliToEnd(["user", "add", "ada", "--password", "a new long secret", "--flock", "club", "--db", db])).toMatchObject({
      code: 0,
      stdout: ['replaced core user "ada" with access to flock club; revoked 1 key or session'],
    });
    expect(await statusWithin(url, next, 401)).toBe(401);
    expect((await login(url, "ada", "a new long secret")).status).toBe(200);
    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  // The full table of bad command lines is in src/cli/args.test.ts; these prove the exit
  // code and the single stderr line through the real process.
  it.each([
    { args: ["serve", "--bogus"], env: {}, line: "records-service serve: Unknown option '--bogus' (see records-service serve --help)" },
    { args: ["flock", "add"], env: {}, line: "missing argument: records-service flock add ID [--name NAME]" },
    { args: ["serve", "--db", ":memory:"], env: { PORT: "eighty" }, line: 'bad port "eighty" (env PORT): expected an integer from 0 to 65535' },
  ])("exits 2 with one stderr line for $args $env", async ({ args, env, line }) => {
    const r = await runCliToEnd(args, env);
    expect(r).toMatchObject({ code: 2, stderr: [line], stdout: [] });
  });

  it("prints usage for --help and exits 0", async () => {
    const r = await runCliToEnd(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout[0]).toBe("Usage: records-service <command> [options]");
    expect(r.stderr).toEqual([]);
  });
});
