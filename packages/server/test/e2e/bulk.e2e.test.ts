/**
 * End to end: a bulk add_tag over 50,000 persons in the real server process, killed with
 * SIGKILL while the task runs, restarted on the same database: the task resumes at its
 * committed cursor, completes, and every person was changed exactly once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/tokens.js";
import { seedPersons, taggedOnce } from "./seed-persons.js";
import { killAll, startCli, type CliProcess } from "./spawn-cli.js";

const PERSONS = 50_000;
const TOKEN = "e".repeat(64);
const CREATED = "2026-01-15T10:00:00.000000";
const tmp = mkdtempSync(join(tmpdir(), "records-bulk-"));

afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes the flock, a core user with a fixed key and the persons straight into the file. */
async function seed(db: string): Promise<void> {
  const storage = createSqliteStorage({ path: db });
  try {
    await storage.createFlock({ identifier: "demo", name: "Demo", created: CREATED });
    await storage.putUser({ username: "admin", passwordHash: "!disabled", flocks: ["demo"], role: "core", created: CREATED });
    await storage.putApiKey({ tokenHash: hashToken(TOKEN), username: "admin", created: CREATED, expires: null });
    await seedPersons(storage, PERSONS, { idPrefix: "e".repeat(8), lastName: "Seed", tags: (i) => (i % 10 === 0 ? ["member"] : null), created: CREATED });
  } finally {
    await storage.close();
  }
}

async function serve(db: string): Promise<{ p: CliProcess; url: string }> {
  const p = startCli(["serve", "--db", db, "--port", "0", "--quiet"]);
  const line = await p.line(/listening on http:\/\//, 20_000);
  return { p, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, application: "e2e/bulk/1", ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

/** The task's data, polled until `done` holds (bounded). */
async function pollTask(url: string, id: string, done: (data: Record<string, any>) => boolean, timeoutMs: number): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api(url, "GET", `/api/v1/demo/core_event/${id}/`);
    expect(status).toBe(200);
    if (done(body.data)) return body.data;
    if (Date.now() > deadline) throw new Error(`task not as expected within ${timeoutMs} ms: ${JSON.stringify(body.data)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("bulk action across a crash", () => {
  it("completes after SIGKILL and restart, changing every one of 50,000 persons exactly once", { timeout: 90_000 }, async () => {
    const db = join(tmp, "records.db");
    await seed(db);

    const first = await serve(db);
    const posted = await api(first.url, "POST", "/api/v1/demo/bulk_action/", {
      action: "add_tag",
      query: { last_name: "Seed" },
      value: "gala-2026",
      description: "everyone to the gala",
    });
    expect(posted.status).toBe(202);
    const id = posted.body.task_id as string;

    // Kill it once the task has committed some chunks but not all.
    const midway = await pollTask(first.url, id, (d) => d.tag === "running" && d.changed > 0, 30_000);
    first.p.child.kill("SIGKILL");
    await first.p.exited();
    expect(midway.changed).toBeLessThan(PERSONS);
    // While running, text_body shows the progress.
    expect(JSON.parse(midway.text_body)).toMatchObject({ state: "running", matched: midway.matched });

    // The file as the killed process left it: the task part done, its progress committed.
    const left = createSqliteStorage({ path: db });
    const killed = (await left.getRecord("demo", "core_event", id))!.data;
    await left.close();
    expect(killed.tag).toBe("running");
    expect(killed.changed).toBeGreaterThanOrEqual(midway.changed);
    expect(killed.changed).toBeLessThan(PERSONS);

    const second = await serve(db);
    const done = await pollTask(second.url, id, (d) => d.tag === "complete" || d.tag === "failed", 45_000);
    expect(done.tag).toBe("complete");
    expect(JSON.parse(done.text_body)).toEqual({ state: "complete", matched: PERSONS, changed: PERSONS, unchanged: 0, errors: 0 });
    // A list filter sees every person tagged.
    expect((await api(second.url, "GET", "/api/v1/demo/person/?tags=gala-2026&page_size=1")).body.total).toBe(PERSONS);
    second.p.child.kill("SIGTERM");
    expect(await second.p.exited(20_000)).toBe(0);

    // Each person: the tag once, and exactly one new version.
    const storage = createSqliteStorage({ path: db });
    try {
      expect(await taggedOnce(storage, "gala-2026")).toEqual({ seen: PERSONS, wrong: [] });
    } finally {
      await storage.close();
    }
  });
});
