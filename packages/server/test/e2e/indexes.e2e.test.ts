/**
 * End to end: `records-service indexes` through the real CLI on the SQLite file a running
 * server serves. A field the CLI adds is what the server's `/_indexes/` route answers at once
 * (the registry is in the database, no process keeps its own copy), and one the route drops
 * is what the CLI lists; refusals exit 1 with the reason, bad command lines 2.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { killAll, runCliToEnd, startCli } from "./spawn-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "records-indexes-"));

afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

describe("records-service indexes", () => {
  it("lists and changes what the running server serves, and the other way round", async () => {
    const db = join(tmp, "records.db");
    const config = join(tmp, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        flocks: [{ identifier: "demo", name: "Demo Society" }, { identifier: "other", name: "Other Club" }],
        users: [{ username: "staff@example.org", password: "pw for staff", flocks: ["demo"] }],
        resourceTypes: [{ flock: "demo", types: ["volunteer"] }],
      }),
    );
    const p = startCli(["serve", "--port", "0", "--db", db, "--config", config, "--quiet"]);
    const url = /listening on (http:\/\/\S+)/.exec(await p.line(/listening on http:\/\//))![1]!;
    const call = async (method: string, path: string, key?: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { "content-type": "application/json", application: "e2e/indexes/1", ...(key ? { authorization: `Bearer ${key}` } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const key = (await call("POST", "/api/v1/auth/", undefined, { username: "staff@example.org", password: "pw for staff" })).body.api_key as string;

    // Every flock, then one; the config's extra type of demo is listed for demo only.
    const all = await runCliToEnd(["indexes", "--db", db]);
    expect(all).toMatchObject({ code: 0, stderr: [] });
    expect(all.stdout[0]).toMatch(/^FLOCK\s+TYPE\s+FIELD\s+STATUS\s+SOURCE$/);
    expect(all.stdout).toContainEqual(expect.stringMatching(/^demo\s+person\s+last_name\s+declared\s+default$/));
    expect(all.stdout).toContainEqual(expect.stringMatching(/^other\s+person\s+last_name\s+declared\s+default$/));
    expect(all.stdout).toContainEqual(expect.stringMatching(/^demo\s+volunteer\s+tags\s+declared\s+default$/));
    expect(all.stdout.some((l) => /^other\s+volunteer\s/.test(l))).toBe(false);

    // The CLI adds; the server answers it at once.
    const added = await runCliToEnd(["indexes", "--db", db, "--flock", "demo", "--add", "volunteer.skill"]);
    expect(added).toMatchObject({ code: 0, stderr: [] });
    expect(added.stdout[1]).toMatch(/^demo\s+volunteer\s+skill\s+building \d+%\s+operator$/);
    const served = await call("GET", "/api/v1/demo/_indexes/", key);
    expect(served.status).toBe(200);
    expect(served.body.indexes).toContainEqual(expect.objectContaining({ type: "volunteer", field: "skill", source: "operator", flock: "demo" }));

    // The server drops; the CLI lists it.
    expect((await call("DELETE", "/api/v1/demo/_indexes/person/last_name/", key)).body.index).toMatchObject({ status: "dropped" });
    const listed = await runCliToEnd(["indexes", "--db", db, "--flock", "demo"]);
    expect(listed.stdout).toContainEqual(expect.stringMatching(/^demo\s+person\s+last_name\s+dropped(, \d+% removed)?\s+operator$/));
    expect(listed.stdout.some((l) => /^other\s/.test(l))).toBe(false);
    const reset = await runCliToEnd(["indexes", "--db", db, "--flock", "demo", "--reset", "person.last_name"]);
    // A dropped default is built again by the serving process's index worker, then the defaults rule.
    expect(reset.stdout[1]).toMatch(/^demo\s+person\s+last_name\s+(building \d+%|declared)\s+default$/);
    await vi.waitFor(async () => expect((await call("GET", "/api/v1/demo/_indexes/", key)).body.indexes).toContainEqual(expect.objectContaining({ type: "person", field: "last_name", status: "declared", source: "default" })), { timeout: 30_000, interval: 200 });

    // Refusals: exit 1 with the service's words; nothing on stdout.
    const engineField = await runCliToEnd(["indexes", "--db", db, "--flock", "demo", "--drop", "person.tags"]);
    expect(engineField).toMatchObject({ code: 1, stdout: [] });
    expect(engineField.stderr.join("\n")).toContain("index needed");
    const unknownType = await runCliToEnd(["indexes", "--db", db, "--flock", "other", "--add", "volunteer.skill"]);
    expect(unknownType.code).toBe(1);
    expect(unknownType.stderr).toHaveLength(1);
    const unknownFlock = await runCliToEnd(["indexes", "--db", db, "--flock", "ghost"]);
    expect(unknownFlock.code).toBe(1);
    expect(unknownFlock.stderr[0]).toContain("ghost");

    p.child.kill("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it.each([
    { name: "a change without --flock", args: ["indexes", "--add", "person.x"] },
    { name: "two changes at once", args: ["indexes", "--flock", "demo", "--add", "person.x", "--reset", "person.y"] },
    { name: "a change without TYPE.FIELD", args: ["indexes", "--flock", "demo", "--drop", "last_name"] },
    { name: "an unknown flag", args: ["indexes", "--type", "person"] },
  ])("exits 2 with one line on stderr for $name", async ({ args }) => {
    const r = await runCliToEnd([...args, "--db", join(tmp, "unused.db")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toHaveLength(1);
    expect(r.stdout).toEqual([]);
  });
});
