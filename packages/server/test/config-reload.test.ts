/**
 * Two servers on one database (a SQLite file; a PostgreSQL database) take up a configuration
 * that a third party applies, without restart: the second, started without a config, runs
 * with the one the first applied. Jobs whose trigger is removed while they are due are held,
 * not dead, and are delivered once when the trigger is put back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock, type OutboxJob } from "@records-service/core";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPasswordHasher } from "../src/auth/passwords.js";
import { applyConfig } from "../src/config/apply.js";
import { parseConfig } from "../src/config.js";
import { recordAppliedConfig } from "../src/config/stored.js";
import { startServer, type RunningServer } from "../src/runtime.js";
import { openStorage } from "../src/storage-open.js";
import { createPerson, pollUntil, startStatusReceiver } from "./e2e/config-helpers.js";

const CHEAP = { N: 16, r: 1, p: 1 };
const tmp = mkdtempSync(join(tmpdir(), "records-config-reload-"));
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c().catch(() => {});
  rmSync(tmp, { recursive: true, force: true });
});

/** A loopback receiver answering `status.now` (503 at first), closed after the file. */
async function receiver() {
  const hook = await startStatusReceiver(503);
  closers.push(() => new Promise((r) => hook.server.close(r)));
  return hook;
}

function configFile(hook: string, withTrigger: boolean) {
  return {
    secret: "config-reload-secret-0123456789",
    flocks: [{ identifier: "demo", name: "Demo" }],
    users: [{ username: "ada@example.org", password: "pw-for-reload", flocks: ["*"] }],
    triggers: withTrigger ? [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: hook }] : [],
    webhooks: { allowInsecureUrls: true, allowPrivateTargets: true, firstRetryDelayMs: 100, retryWindowHours: 1 },
  };
}

/** What `records-service config apply` does, from a third connection. */
async function applyFrom(db: string, json: unknown, source: string): Promise<void> {
  const storage = await openStorage(db, { watchChanges: false });
  try {
    const config = parseConfig(json);
    const applied = await applyConfig(storage, systemClock, config, createPasswordHasher(CHEAP));
    await recordAppliedConfig(storage, systemClock, config, { source, secretChanged: applied.secretChanged });
  } finally {
    await storage.close();
  }
}

const until = <T>(what: string, fn: () => Promise<T | undefined | false>) => pollUntil(what, fn, 20_000);

async function key(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "ada@example.org", password: "pw-for-reload" }),
  });
  return ((await res.json()) as { api_key: string }).api_key;
}

async function get(url: string, apiKey: string, path: string): Promise<unknown> {
  const res = await fetch(`${url}/api/v1/demo/${path}`, { headers: { authorization: `Bearer ${apiKey}`, application: "test/reload" } });
  expect(res.status).toBe(200);
  return res.json();
}

const DATABASES: [string, () => Promise<string | undefined>][] = [
  ["sqlite", async () => join(tmp, `db-${Math.random().toString(16).slice(2)}`, "records.db")],
  [
    "postgres",
    async () => {
      if (!inject("pgAvailable")) return undefined;
      const db: TestDatabase = await createTestDatabase();
      closers.push(() => db.drop());
      return db.url;
    },
  ],
];

describe.each(DATABASES)("configuration applied to the database (%s)", (name, makeDb) => {
  it("a second server runs with it, both take up a new one without restart; jobs are held, then delivered once", { timeout: 90_000 }, async (ctx) => {
    const db = await makeDb();
    if (db === undefined) return ctx.skip(`${name}: no PostgreSQL test server`);
    const hook = await receiver();
    const start = (config: unknown, out: string[]) =>
      startServer({
        db,
        host: "127.0.0.1",
        port: 0,
        seed: false,
        passwordCost: CHEAP,
        configCheckMs: 100,
        out: (l) => out.push(l),
        ...(config ? { config: parseConfig(config), configSource: "c1.json" } : {}),
      });
    const outA: string[] = [];
    const outB: string[] = [];
    const a: RunningServer = await start(configFile(hook.url, true), outA);
    closers.push(() => a.close());
    const b: RunningServer = await start(undefined, outB);
    closers.push(() => b.close());
    expect(outA).toContainEqual(expect.stringMatching(/^config: applied .*\(revision 1, from c1\.json\)/));
    expect(outB.filter((l) => l.startsWith("config: "))).toEqual([expect.stringMatching(/^config: using the configuration applied \S+Z \(revision 1, from c1\.json; no --config given\)$/)]);
    const [keyA, keyB] = [await key(a.url), await key(b.url)];
    expect(Object.keys((await get(b.url, keyB, "triggers/")) as object)).toEqual(["contact_created"]);

    // The receiver refuses: both jobs stay due, retried every few hundred ms.
    await createPerson(a.url, keyA, "One", "test/reload");
    await createPerson(b.url, keyB, "Two", "test/reload");
    await until("both jobs attempted", async () => new Set(hook.got.map((g) => g.id)).size === 2);

    await applyFrom(db, configFile(hook.url, false), "c2.json");
    for (const [url, k] of [[a.url, keyA], [b.url, keyB]] as const) {
      await until(`${url} runs without the trigger`, async () => JSON.stringify(await get(url, k, "triggers/")) === "{}");
    }
    const held = await until("both jobs held", async () => {
      const jobs = (await get(a.url, keyA, "outbox/?status=held")) as { jobs: { status: string; last_error: string }[] };
      return jobs.jobs.length === 2 && jobs.jobs;
    });
    expect(held.every((j) => /^held: trigger contact_created with action send-json-webhook is not configured or not active/.test(j.last_error))).toBe(true);
    expect(((await get(a.url, keyA, "outbox/?status=dead")) as { jobs: unknown[] }).jobs).toEqual([]);
    const attempts = hook.got.length;
    await new Promise((r) => setTimeout(r, 700));
    expect(hook.got.length).toBe(attempts); // held jobs are not attempted

    hook.status.now = 200;
    await applyFrom(db, configFile(hook.url, true), "c3.json");
    const done = await until("both jobs delivered", async () => {
      const jobs = (await a.storage.listJobs({ status: "done" })) as OutboxJob[];
      return jobs.length === 2 && jobs;
    });
    await new Promise((r) => setTimeout(r, 500));
    for (const j of done) expect(hook.got.filter((g) => g.id === j.deliveryId && g.status === 200)).toHaveLength(1);
    expect(outA.concat(outB).some((l) => /^config: now running with the configuration applied .*revision 3, from c3\.json/.test(l))).toBe(true);
    expect(outA.concat(outB).some((l) => /^outbox: [12] held job\(s\) resumed/.test(l))).toBe(true);
  });
});
