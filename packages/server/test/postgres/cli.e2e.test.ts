/**
 * End to end on PostgreSQL: the real CLI in child processes with `--db postgres://...` (or
 * `DATABASE_URL`) for serve, flock add, user add, jobs and card-url, and the one line an
 * unreachable server or a bad URL gets (exit 1, no stack).
 */
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { killAll, runCliToEnd, startCli } from "../e2e/spawn-cli.js";

describe.skipIf(!inject("pgAvailable"))("records-service on PostgreSQL", () => {
  let db: TestDatabase;
  let url = "";
  beforeAll(async () => {
    db = await createTestDatabase();
    // A password in the URL (the local server trusts the user anyway) that must never be printed.
    const u = new URL(db.url);
    u.password = "s3cret-pw";
    url = u.toString();
  });
  afterAll(async () => {
    killAll();
    await db?.drop();
  });

  it("flock add, user add, serve, card-url and jobs share one database", async () => {
    const flock = await runCliToEnd(["flock", "add", "club", "--name", "The Club", "--db", url]);
    expect(flock.code).toBe(0);
    expect(flock.stdout.join("\n")).toContain('created flock "club" (The Club) in postgres://postgres:***@');
    const user = await runCliToEnd(["user", "add", "ada", "--password", "correct horse battery", "--flock", "club"], { DATABASE_URL: url });
    expect(user.code).toBe(0);

    const p = startCli(["serve", "--port", "0", "--db", url]);
    const line = await p.line(/listening on http:\/\//, 30_000);
    expect(line).not.toContain("s3cret-pw");
    expect(line).toContain("postgres://postgres:***@");
    const base = /listening on (http:\/\/\S+)/.exec(line)![1]!;
    const login = await fetch(`${base}/api/v1/auth/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "ada", password: "correct horse battery" }),
    });
    const key = ((await login.json()) as { api_key: string }).api_key;
    const headers = { authorization: `Bearer ${key}`, application: "e2e/records-service/1", "content-type": "application/json" };
    const created = await fetch(`${base}/api/v1/club/person/`, { method: "POST", headers, body: JSON.stringify({ first_name: "Ada" }) });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { uri: string }).uri.split("/")[3]!;
    const got = await fetch(`${base}/api/v1/club/person/${id}/`, { headers });
    expect(((await got.json()) as { data: { first_name: string } }).data.first_name).toBe("Ada");
    p.child.kill("SIGTERM");
    expect(await p.exited(15_000)).toBe(0);

    // A person without a membership has no card: the answer comes from the same database.
    const card = await runCliToEnd(["card-url", "club", id, "--db", url]);
    expect(card.code).toBe(1);
    expect(card.stderr.join("\n")).toMatch(new RegExp(`no member "${id}" \\(in postgres://postgres:\\*\\*\\*@`));
    const jobs = await runCliToEnd(["jobs"], { DATABASE_URL: url });
    expect(jobs).toMatchObject({ code: 0, stderr: [] });
  }, 60_000);

  it.each([
    { name: "jobs, no server", code: 1, args: ["jobs", "--db", "postgres://nobody@127.0.0.1:9/records"], line: /^records-service: cannot reach PostgreSQL at 127\.0\.0\.1:9\/records: .*ECONNREFUSED/ },
    { name: "serve, no server", code: 1, args: ["serve", "--port", "0", "--db", "postgres://nobody:pw@127.0.0.1:9/records"], line: /^records-service: cannot reach PostgreSQL at 127\.0\.0\.1:9\/records: .*ECONNREFUSED/ },
    // A URL that does not parse is refused before anything is opened (a usage error: exit 2).
    { name: "flock add, bad URL", code: 2, args: ["flock", "add", "x", "--db", "postgres://db.invalid:notaport/records"], line: /^bad --db "postgres:\/\/db\.invalid:notaport\/records": not a valid PostgreSQL URL; expected postgres:\/\/user/ },
  ])("$name: exit $code with one line", async ({ code, args, line }) => {
    const run = await runCliToEnd(args);
    expect(run.code).toBe(code);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(line);
    expect(run.stderr[0]).not.toContain(":pw@");
  }, 30_000);
});
