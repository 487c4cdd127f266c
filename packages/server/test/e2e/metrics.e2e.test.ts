/**
 * End to end through the real CLI: `GET /metrics` and `GET /api/v1/health/` of real `serve`
 * processes. Two processes on one database (a SQLite file, and a PostgreSQL database): each
 * reports its own series under its own `pid`, its request counter moves with the requests
 * it answered and not with the other's, the database's gauges agree, and health answers on
 * both. `metrics.port`: a port of its own on 127.0.0.1 (the API's port has no /metrics), and
 * with `serve --processes 2` the primary serves every process's series there.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { parseScrape } from "../helpers/scrape.js";
import { killAll, runCliToEnd, startCli, type CliProcess } from "./spawn-cli.js";

const TOKEN = "e2e-metrics-token-0123456789";
const dir = mkdtempSync(join(tmpdir(), "records-metrics-"));
const databases: TestDatabase[] = [];
afterEach(() => killAll());
afterAll(async () => {
  for (const db of databases) await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

function config(name: string, metrics: Record<string, unknown>): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ flocks: [{ identifier: "club", name: "The Club" }], metrics }));
  return path;
}

async function serve(db: string, configPath: string, extra: string[] = []): Promise<{ p: CliProcess; base: string }> {
  const p = startCli(["serve", "--port", "0", "--db", db, "--config", configPath, "--quiet", ...extra]);
  const line = await p.line(/listening on http:\/\//, 60_000);
  return { p, base: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

const scrape = async (url: string, token: string | undefined = TOKEN) => {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  return parseScrape(await res.text());
};

const ping = { method: "GET", route: "/api/v1/ping", status: "200" };

describe.each([
  ["a SQLite file", async () => join(mkdtempSync(join(dir, "db-")), "records.db"), false],
  [
    "a PostgreSQL database",
    async () => {
      const db = await createTestDatabase();
      databases.push(db);
      return db.url;
    },
    !inject("pgAvailable"),
  ],
] as const)("two serve processes on %s", (_name, database, skip) => {
  it.skipIf(skip)("each reports its own series under its pid; the database's gauges agree; health answers on both", { timeout: 120_000 }, async () => {
    const db = await database();
    const cfg = config(`two-${Math.random().toString(36).slice(2)}`, { enabled: true, token: TOKEN });
    const a = await serve(db, cfg);
    const b = await serve(db, cfg);
    const [pidA, pidB] = [String(a.p.child.pid), String(b.p.child.pid)];
    expect((await fetch(`${a.base}/metrics`)).status).toBe(401);

    const beforeA = await scrape(`${a.base}/metrics`);
    const beforeB = await scrape(`${b.base}/metrics`);
    for (let i = 0; i < 3; i++) expect((await fetch(`${a.base}/api/v1/ping/`)).status).toBe(200);
    const afterA = await scrape(`${a.base}/metrics`);
    const afterB = await scrape(`${b.base}/metrics`);

    // Each process's series carry its own pid, and only its own.
    for (const [m, pid] of [[afterA, pidA], [afterB, pidB]] as const) {
      const pids = new Set(m.samples("records_change_feed_subscribers").map((s) => s.labels.pid));
      expect([...pids]).toEqual([pid]);
      expect(m.value("process_resident_memory_bytes", { pid })).toBeGreaterThan(0);
    }
    const moved = (before: typeof afterA, after: typeof afterA, pid: string) =>
      (after.value("records_http_requests_total", { ...ping, pid }) ?? 0) - (before.value("records_http_requests_total", { ...ping, pid }) ?? 0);
    expect(moved(beforeA, afterA, pidA)).toBe(3);
    expect(moved(beforeB, afterB, pidB)).toBe(0);
    // The database's gauges: the same database, the same values, no pid.
    for (const status of ["pending", "held", "dead"]) {
      expect(afterA.value("records_outbox_jobs", { status })).toBe(afterB.value("records_outbox_jobs", { status }));
    }
    expect(afterA.value("records_database_up")).toBe(1);
    if (db.startsWith("postgres")) expect(afterA.value("records_db_pool_connections", { pid: pidA, state: "idle" })).toBeGreaterThanOrEqual(0);

    for (const [proc, pid] of [[a, pidA], [b, pidB]] as const) {
      const res = await fetch(`${proc.base}/api/v1/health/`);
      expect(res.status).toBe(200);
      const health = (await res.json()) as { message: string; database: unknown; process: { pid: number; workers: string[] }; leases: unknown[] };
      expect(health).toMatchObject({ message: "ok", database: { reachable: true }, process: { pid: Number(pid) } });
      expect([...health.process.workers].sort()).toEqual(["indexes", "outbox", "scheduler", "search", "tasks"]);
      expect(Array.isArray(health.leases)).toBe(true);
    }
  });
});

describe("metrics.port", () => {
  it("serves /metrics on 127.0.0.1 alone (the API's port has none), with the token when one is given", { timeout: 120_000 }, async () => {
    const db = join(mkdtempSync(join(dir, "db-")), "records.db");
    const { p, base } = await serve(db, config("port", { enabled: true, port: 0, token: TOKEN }));
    const line = await p.line(/metrics at http:\/\/127\.0\.0\.1:\d+\/metrics/);
    const url = /metrics at (\S+)/.exec(line)![1]!;
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url.replace(/\/metrics$/, "/api/v1/ping/"))).status).toBe(404);
    const m = await scrape(url);
    expect(m.value("records_change_feed_subscribers", { pid: String(p.child.pid) })).toBe(0);
  });

  it("with serve --processes 2, the primary serves every process's series there", { timeout: 180_000 }, async () => {
    const db = join(mkdtempSync(join(dir, "db-")), "records.db");
    const p = startCli(["serve", "--processes", "2", "--port", "0", "--db", db, "--config", config("cluster", { enabled: true, port: 0 }), "--quiet"]);
    // Three processes start on a machine that may be loaded: a generous bound.
    const listening = await p.line(/listening on http:\/\//, 120_000);
    const base = /listening on (http:\/\/\S+)/.exec(listening)![1]!;
    const pids = /2 processes: (\d+), (\d+)/.exec(listening)!.slice(1).sort();
    const url = /metrics of every process at (\S+)/.exec(await p.line(/metrics of every process at/))![1]!;
    for (let i = 0; i < 6; i++) expect((await fetch(`${base}/api/v1/ping/`)).status).toBe(200);
    const m = await scrape(url, undefined);
    expect(m.samples("records_change_feed_subscribers").map((s) => s.labels.pid).sort()).toEqual(pids);
    const pings = m.samples("records_http_requests_total").filter((s) => s.labels.route === ping.route);
    expect(pings.reduce((n, s) => n + s.value, 0)).toBe(6);
    expect(pings.every((s) => pids.includes(s.labels.pid!))).toBe(true);
    // The database's gauges are taken once, not summed over the processes.
    expect(m.samples("records_outbox_jobs").filter((s) => s.labels.status === "pending")).toHaveLength(1);
    expect(m.value("records_database_up")).toBe(1);
  });

  it("with serve --processes 2 and no --config, the primary serves the port of the stored configuration", { timeout: 180_000 }, async () => {
    const db = join(mkdtempSync(join(dir, "db-")), "records.db");
    const apply = await runCliToEnd(["config", "apply", config("stored", { enabled: true, port: 0 }), "--db", db]);
    expect(apply.code).toBe(0);
    const p = startCli(["serve", "--processes", "2", "--port", "0", "--db", db, "--quiet"]);
    const listening = await p.line(/listening on http:\/\//, 120_000);
    const pids = /2 processes: (\d+), (\d+)/.exec(listening)!.slice(1).sort();
    const url = /metrics of every process at (\S+)/.exec(await p.line(/metrics of every process at/))![1]!;
    const m = await scrape(url, undefined);
    expect(m.samples("records_change_feed_subscribers").map((s) => s.labels.pid).sort()).toEqual(pids);
  });
});
