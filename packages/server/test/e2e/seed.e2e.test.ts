/**
 * End to end: the real `records-service seed` and `serve --demo-data` (issue 25). Seeding
 * writes through the engine (the flock's change feed and data events count the records),
 * the same seed and day give the same people, an unknown flock or a missing database
 * exits 1 and writes nothing; `serve --demo-data` fills the new demo flock once, and a
 * second start finds it filled.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, runCliToEnd, startCli } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-seed-"));
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

describe("records-service seed", () => {
  it("fills an existing flock through the engine, the same seed giving the same people", async () => {
    const a = join(tmp, "a.db");
    const b = join(tmp, "b.db");
    for (const db of [a, b]) {
      expect((await runCliToEnd(["flock", "add", "club", "--db", db])).code).toBe(0);
      const r = await runCliToEnd(["seed", "--flock", "club", "--persons", "15", "--seed", "42", "--db", db]);
      expect(r.code, r.stderr.join("\n")).toBe(0);
      expect(r.stdout.join("\n")).toMatch(/^seeded flock club: 15 person, \d+ membership, \d+ payment, \d+ booking records$/m);
    }
    const people = async (db: string) =>
      (await runCliToEnd(["export", "--flock", "club", "--type", "person", "--db", db])).stdout
        .filter(Boolean)
        .map((l) => {
          const { first_name, last_name, email, tags } = (JSON.parse(l) as { data: Record<string, unknown> }).data;
          return { first_name, last_name, email, tags };
        });
    const first = await people(a);
    expect(first).toHaveLength(15);
    expect(await people(b)).toEqual(first);
    // Written through the engine: each person's creation event is there.
    const events = (await runCliToEnd(["export", "--flock", "club", "--type", "data_event", "--db", a])).stdout.filter(Boolean);
    expect(events.filter((l) => l.includes('"contact_created"')).length).toBe(15);
    // Memberships reference their person, payments their membership.
    const memberships = (await runCliToEnd(["export", "--flock", "club", "--type", "membership", "--db", a])).stdout.filter(Boolean);
    expect(memberships.length).toBeGreaterThan(0);
    for (const l of memberships) expect((JSON.parse(l) as { data: { member: string } }).data.member).toMatch(/^\/club\/person\/[0-9a-f]{24}\/$/);
  }, 120_000);

  it("exits 1 for an unknown flock or a missing database, writing nothing", async () => {
    const db = join(tmp, "c.db");
    expect((await runCliToEnd(["flock", "add", "club", "--db", db])).code).toBe(0);
    const unknown = await runCliToEnd(["seed", "--flock", "nope", "--db", db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.join("\n")).toContain("flock 'nope' does not exist");
    const none = await runCliToEnd(["seed", "--flock", "club", "--db", join(tmp, "missing.db")]);
    expect(none.code).toBe(1);
    expect(none.stderr.join("\n")).toContain("no database at");
    const bad = await runCliToEnd(["seed", "--flock", "club", "--persons", "many", "--db", db]);
    expect(bad.code).toBe(2);
    expect((await runCliToEnd(["export", "--flock", "club", "--db", db])).stdout.filter(Boolean)).toEqual([]);
  });
});

describe("records-service serve --demo-data", () => {
  it("fills the new demo flock once; a second start adds nothing", async () => {
    const db = join(tmp, "serve.db");
    const first = startCli(["serve", "--db", db, "--port", "0", "--quiet", "--demo-data"]);
    const filled = await first.line(/filled flock "demo" with sample data/, 60_000);
    expect(filled).toMatch(/50 person, \d+ membership, \d+ payment, \d+ booking records/);
    const url = /listening on (http:\/\/\S+)/.exec(await first.line(/listening on/, 60_000))![1]!;
    const password = /password: (\S+)/.exec(await first.line(/password: /))![1]!;
    const { api_key } = (await (await fetch(`${url}/api/v1/auth/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password }) })).json()) as { api_key: string };
    const types = (await (await fetch(`${url}/api/v1/demo/`, { headers: { authorization: `Bearer ${api_key}`, application: "Tests/seed/1" } })).json()) as { resource_type: { name: string; count: number }[] };
    expect(types.resource_type.find((t) => t.name === "person")?.count).toBe(50);
    first.child.kill("SIGTERM");
    expect(await first.exited()).toBe(0);

    const again = startCli(["serve", "--db", db, "--port", "0", "--quiet", "--demo-data"]);
    expect(await again.line(/holds persons already; nothing added/, 60_000)).toContain('flock "demo"');
    again.child.kill("SIGTERM");
    expect(await again.exited()).toBe(0);
  }, 120_000);
});
