/**
 * @module test/e2e/scaleout
 * Issue 10's background work with several real `serve` processes on one database, as
 * scenarios each database's e2e file runs (SQLite file, PostgreSQL database): every
 * webhook accepted exactly once with 2 and 3 processes; the scheduler firing once per
 * event when all processes start at the same moment; a process killed (SIGKILL) in the
 * middle of a webhook attempt, the job then retried by another with the same delivery id
 * after the lease; a process killed during a bulk task, which another then finishes with
 * the counts one process would give. Leases are short (config), so nothing sleeps long.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTimestamp, LEASE_KEY_PREFIX, type Storage } from "@records-service/core";
import { afterAll, expect, it } from "vitest";
import { hashToken } from "../../src/auth/tokens.js";
import { seedPersons, taggedOnce } from "./seed-persons.js";
import { killAll, startCli, type CliProcess } from "./spawn-cli.js";

/** A fresh database for one scenario: its `--db` argument and a Storage over it. */
interface ScaleOutDb {
  arg: string;
  open(): Promise<Storage>;
}

/** How a database's e2e file provides databases. */
export interface ScaleOutTarget {
  /** A fresh, empty database. */
  fresh(): Promise<ScaleOutDb>;
  /** Persons for the bulk scenario (enough that a process is killed mid-task). */
  bulkPersons: number;
}

const TOKEN = "5".repeat(64);
const CREATED = "2026-01-15T10:00:00.000000";
const LEASE_MS = 1500;

/** Declares the scenarios (call inside a `describe`). */
export function scaleOutScenarios(target: ScaleOutTarget): void {
  const tmp = mkdtempSync(join(tmpdir(), "records-scaleout-"));
  const receivers: Server[] = [];
  let n = 0;
  afterAll(() => {
    killAll();
    for (const r of receivers) r.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A loopback receiver; `hold(i)` true keeps request i open (never answered). */
  const receiver = async (hold: (i: number) => boolean = () => false) => {
    const got: { id: string; body: string; status: number | null }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const i = got.length;
        const held = hold(i);
        got.push({ id: String(req.headers["x-records-delivery"]), body: Buffer.concat(chunks).toString("utf8"), status: held ? null : 200 });
        if (!held) res.writeHead(200).end("ok");
      });
    });
    receivers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
  };

  const config = (triggers: Record<string, unknown>[]) => {
    const file = join(tmp, `config-${++n}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        triggers,
        scheduler: { cron: "* * * * * *" },
        webhooks: { allowInsecureUrls: true, allowPrivateTargets: true, firstRetryDelayMs: 200, retryWindowHours: 1 },
        workers: { leaseMs: LEASE_MS },
      }),
    );
    return file;
  };

  /** A fresh database with flock demo and a core user whose key is TOKEN (and `persons` seeded). */
  const prepare = async (persons = 0): Promise<ScaleOutDb> => {
    const db = await target.fresh();
    const storage = await db.open();
    try {
      await storage.createFlock({ identifier: "demo", name: "Demo", created: CREATED });
      await storage.putUser({ username: "admin", passwordHash: "!disabled", flocks: ["demo"], role: "core", created: CREATED });
      await storage.putApiKey({ tokenHash: hashToken(TOKEN), username: "admin", created: CREATED, expires: null });
      await seedPersons(storage, persons, { idPrefix: "5".repeat(8), lastName: "Seed", created: CREATED });
    } finally {
      await storage.close();
    }
    return db;
  };

  const serve = async (db: ScaleOutDb, configFile: string): Promise<{ p: CliProcess; url: string }> => {
    const p = startCli(["serve", "--db", db.arg, "--port", "0", "--config", configFile, "--quiet"]);
    const line = await p.line(/listening on http:\/\//, 40_000);
    return { p, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
  };

  const api = async (url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, application: "e2e/scaleout/1", ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: await res.json() };
  };

  const until = async <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await check();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  /** Waits until no delivery has come for `quietMs`. */
  const quiet = async (got: unknown[], quietMs = 2500) => {
    let count = got.length;
    let since = Date.now();
    while (Date.now() - since < quietMs) {
      await new Promise((r) => setTimeout(r, 50));
      if (got.length !== count) {
        count = got.length;
        since = Date.now();
      }
    }
  };

  const stopAll = async (procs: { p: CliProcess }[]) => {
    for (const { p } of procs) p.child.kill("SIGTERM");
    for (const { p } of procs) expect(await p.exited(30_000)).toBe(0);
  };

  it.each([2, 3])("%i processes, persons created alternately through each: every delivery accepted exactly once", { timeout: 120_000 }, async (count) => {
    const hook = await receiver();
    const db = await prepare();
    const file = config([{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: hook.url }]);
    const procs = await Promise.all(Array.from({ length: count }, () => serve(db, file)));
    const PERSONS = 30 * count;
    const uris: string[] = [];
    for (let i = 0; i < PERSONS; i += count) {
      const made = await Promise.all(procs.map((p, k) => api(p.url, "POST", "/api/v1/demo/person/", { first_name: `P${i + k}` })));
      for (const m of made) {
        expect(m.status).toBe(201);
        uris.push(m.body.uri);
      }
    }
    await until("every delivery", () => new Set(hook.got.map((d) => d.id)).size >= PERSONS);
    await quiet(hook.got);
    const ids = hook.got.map((d) => d.id);
    expect(ids).toHaveLength(PERSONS);
    expect(new Set(ids).size).toBe(PERSONS);
    expect(new Set(hook.got.map((d) => JSON.parse(d.body).data.uri))).toEqual(new Set(uris));
    await stopAll(procs);
  });

  it("all processes starting at once: the scheduler emits each date-relative event once", { timeout: 120_000 }, async () => {
    const hook = await receiver();
    const db = await prepare();
    const file = config([{ flock: "demo", trigger: "expiring_2wk", action: "send-json-webhook", url: hook.url }]);
    const procs = await Promise.all([0, 1, 2].map(() => serve(db, file)));
    // Fire 14 days before end_date: a few seconds from now, while every process ticks each second.
    const MEMBERSHIPS = 6;
    const uris: string[] = [];
    for (let i = 0; i < MEMBERSHIPS; i++) {
      const via = procs[i % procs.length]!.url;
      const person = await api(via, "POST", "/api/v1/demo/person/", { first_name: `M${i}`, last_name: "Member" });
      const endDate = formatTimestamp(new Date(Date.now() + 14 * 86_400_000 + 3_000 + i * 300));
      const m = await api(via, "POST", "/api/v1/demo/membership/", { member: person.body.uri, end_date: endDate, auto_renew: false });
      expect(m.status).toBe(201);
      uris.push(m.body.uri);
    }
    await until("every expiring_2wk delivery", () => hook.got.length >= MEMBERSHIPS);
    await quiet(hook.got, 3000);
    expect(hook.got.map((d) => JSON.parse(d.body).data.uri).sort()).toEqual([...uris].sort());
    const events = await api(procs[1]!.url, "GET", "/api/v1/demo/data_event/?name=expiring_2wk&page_size=100");
    expect(events.body.total).toBe(MEMBERSHIPS);
    await stopAll(procs);
  });

  it("a process killed in the middle of a webhook attempt: another retries it with the same delivery id after the lease", { timeout: 120_000 }, async () => {
    const hook = await receiver((i) => i === 0);
    const db = await prepare();
    const file = config([{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: hook.url }]);
    // The first process alone claims the job (its commit nudges its own worker); the
    // receiver holds the request; then a second process starts, and the first is killed.
    const holder = await serve(db, file);
    await api(holder.url, "POST", "/api/v1/demo/person/", { first_name: "Katherine" });
    await until("the held attempt", () => hook.got.length === 1);
    const other = await serve(db, file);
    expect(hook.got).toHaveLength(1);
    holder.p.child.kill("SIGKILL");
    await holder.p.exited();
    await until("the retry by the other process", () => hook.got.length >= 2, 20_000);
    expect(hook.got[1]!.id).toBe(hook.got[0]!.id);
    expect(hook.got[1]!.body).toBe(hook.got[0]!.body);
    await quiet(hook.got);
    expect(hook.got).toHaveLength(2);
    const jobs = await api(other.url, "GET", "/api/v1/demo/data_event/?name=contact_created");
    expect(jobs.body.results.map((e: any) => e.data.tags)).toEqual([["send-json-webhook"]]);
    await stopAll([other]);
  });

  it("a process killed during a bulk task: another finishes it after the lease, with one process's counts", { timeout: 180_000 }, async () => {
    const PERSONS = target.bulkPersons;
    const db = await prepare(PERSONS);
    const file = config([]);
    const procs = await Promise.all([0, 1].map(() => serve(db, file)));
    const posted = await api(procs[0]!.url, "POST", "/api/v1/demo/bulk_action/", { action: "add_tag", query: { last_name: "Seed" }, value: "gala" });
    expect(posted.status).toBe(202);
    const id = posted.body.task_id as string;
    const task = async (url: string) => (await api(url, "GET", `/api/v1/demo/core_event/${id}/`)).body.data;
    await until("the task part done", async () => {
      const d = await task(procs[0]!.url);
      return d.tag === "running" && d.changed > 0;
    });
    const holder = await holderOf(db, procs, `${LEASE_KEY_PREFIX}task:demo:${id}`);
    const other = holder === procs[0] ? procs[1]! : procs[0]!;
    holder.p.child.kill("SIGKILL");
    await holder.p.exited();
    const midway = await task(other.url);
    expect(midway.tag).toBe("running");
    expect(midway.changed).toBeLessThan(PERSONS);
    const done = await until("the task finished by the other process", async () => {
      const d = await task(other.url);
      return d.tag !== "running" && d.tag !== "queued" && d;
    }, 120_000);
    expect(done.tag).toBe("complete");
    expect(JSON.parse(done.text_body)).toEqual({ state: "complete", matched: PERSONS, changed: PERSONS, unchanged: 0, errors: 0 });
    expect((await api(other.url, "GET", "/api/v1/demo/person/?tags=gala&page_size=1")).body.total).toBe(PERSONS);
    await stopAll([other]);
    // Each person: the tag once, one new version.
    const storage = await db.open();
    try {
      expect(await taggedOnce(storage, "gala")).toEqual({ seen: PERSONS, wrong: [] });
    } finally {
      await storage.close();
    }
  });
}

// --- internal ---

/** The process whose pid names the lease `key` (owners are `host:pid:random`), polled until one holds it. */
async function holderOf<P extends { p: CliProcess }>(db: ScaleOutDb, procs: readonly P[], key: string): Promise<P> {
  const storage = await db.open();
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await storage.listLimits(key, Date.now());
      const pid = rows.length > 0 ? Number(rows[0]!.value.split(":")[1]) : NaN;
      const hit = procs.find((x) => x.p.child.pid === pid);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no process holds ${key}: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await storage.close();
  }
}
