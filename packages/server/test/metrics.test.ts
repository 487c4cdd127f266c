/**
 * `GET /metrics` and `GET /api/v1/health/` through `app.request()`, on memory and SQLite:
 * off by default (404), the token refused and accepted, the exposition parsed by a
 * Prometheus text-format parser, request counters labelled by route pattern moving as
 * requests are made, the outbox and task gauges read from the database, open change feeds
 * counted while open; health with this process's workers and the lease holders.
 */
import { formatTimestamp, withLease, type OutboxJob, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceMetrics } from "../src/metrics/service-metrics.js";
import { processLeaseOwner } from "../src/runtime/workers.js";
import { createTestApp, KEYS, seed, type TestApp } from "./helpers/app.js";
import { parseScrape } from "./helpers/scrape.js";
import { readSse } from "./helpers/sse.js";

const TOKEN = "metrics-token-0123456789";
const opened: Storage[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const adapters: [string, () => Storage][] = [
  ["memory", () => undefined as unknown as Storage],
  [
    "SQLite",
    () => {
      const s = createSqliteStorage({ path: ":memory:" });
      opened.push(s);
      return s;
    },
  ],
];

async function withMetrics(storage: Storage | undefined, workers: readonly string[] = []): Promise<TestApp> {
  return createTestApp({
    ...(storage ? { storage } : {}),
    changes: { pollMs: 1 },
    workers: () => workers,
    metrics: (s, clock) => ({ metrics: createServiceMetrics({ storage: s, clock, workers: () => workers }), token: TOKEN }),
  });
}

const scrape = async (t: TestApp) => {
  const res = await t.call("GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseScrape(await res.text());
};

function job(n: number, over: Partial<OutboxJob>): OutboxJob {
  const id = n.toString(16).padStart(24, "0");
  return {
    id,
    flock: "alpha",
    dataEventId: id,
    trigger: "contact_created",
    action: "send-json-webhook",
    deliveryId: id,
    status: "pending",
    attempts: 0,
    nextAttemptAt: "2026-01-15T10:00:00.000000",
    firstAttemptAt: null,
    lastError: null,
    lastStatus: null,
    body: null,
    created: "2026-01-15T09:00:00.000000",
    ...over,
  };
}

describe("GET /metrics is off by default", () => {
  it("answers 404 and counts nothing", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not found" });
  });
});

describe("the OpenAPI document", () => {
  it("describes /metrics, with its token scheme, only where it is served", async () => {
    type Doc = { paths: Record<string, { get?: { security?: unknown[] } }> };
    const off = (await (await (await createTestApp()).call("GET", "/api/openapi.json")).json()) as Doc;
    expect(Object.keys(off.paths)).not.toContain("/metrics");
    expect(off.paths["/api/v1/health"]?.get).toBeDefined();
    const on = (await (await (await withMetrics(undefined)).call("GET", "/api/openapi.json")).json()) as Doc;
    expect(on.paths["/metrics"]?.get?.security).toEqual([{ metricsToken: [] }]);
  });
});

describe.each(adapters)("GET /metrics on %s", (_name, make) => {
  it("refuses a missing or wrong token with 401 and serves valid Prometheus text for the right one", async () => {
    const t = await withMetrics(make());
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await t.call("GET", "/metrics", { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "invalid metrics token", error_detail: expect.stringContaining("metrics.token") });
    }
    await scrape(t);
    await new Promise((r) => setImmediate(r));
    const m = await scrape(t);
    // prom-client's process metrics: event-loop lag (measured a turn after each scrape,
    // so the second one has it) and memory, labelled with the pid.
    expect(m.value("nodejs_eventloop_lag_seconds", { pid: String(process.pid) })).toBeGreaterThanOrEqual(0);
    expect(m.value("nodejs_eventloop_lag_p99_seconds", { pid: String(process.pid) })).toBeGreaterThanOrEqual(0);
    expect(m.value("process_resident_memory_bytes", { pid: String(process.pid) })).toBeGreaterThan(0);
    expect(m.value("records_database_up")).toBe(1);
    expect(m.type("records_http_requests_total")).toBe("COUNTER");
    expect(m.type("records_http_request_duration_seconds")).toBe("HISTOGRAM");
  });

  it("counts requests by route pattern and status, with a latency histogram, as they are made", async () => {
    const t = await withMetrics(make());
    const before = await scrape(t);
    const pid = String(process.pid);
    const ping = { pid, method: "GET", route: "/api/v1/ping", status: "200" };
    const get = { pid, method: "GET", route: "/api/v1/:flock/:type/:id", status: "200" };
    const missing = { pid, method: "GET", route: "/api/v1/:flock/:type/:id", status: "404" };
    const ids = [await seed(t, "alpha", "person", { first_name: "Ada" }), await seed(t, "alpha", "person", { first_name: "Bob" })];
    for (let i = 0; i < 3; i++) expect((await t.call("GET", "/api/v1/ping/")).status).toBe(200);
    for (const id of ids) expect((await t.call("GET", `/api/v1/alpha/person/${id}/`, { key: KEYS.alice })).status).toBe(200);
    expect((await t.call("GET", `/api/v1/alpha/person/${"0".repeat(24)}/`, { key: KEYS.alice })).status).toBe(404);
    expect((await t.call("GET", "/no/such/path/")).status).toBe(404);
    const after = await scrape(t);
    const moved = (labels: Record<string, string>) => (after.value("records_http_requests_total", labels) ?? 0) - (before.value("records_http_requests_total", labels) ?? 0);
    expect(moved(ping)).toBe(3);
    expect(moved(get)).toBe(2);
    expect(moved(missing)).toBe(1);
    expect(moved({ pid, method: "GET", route: "unmatched", status: "404" })).toBe(1);
    // The histogram counts the same requests.
    const histogram = after.samples("records_http_request_duration_seconds").find((s) => s.labels.route === get.route && s.labels.status === "200");
    expect(histogram?.count).toBe(2);
    expect(histogram?.sum).toBeGreaterThan(0);
    // No raw path, id or flock name in any label: one series per route pattern.
    const routes = after.samples("records_http_requests_total").map((s) => s.labels.route!);
    expect(routes.filter((r) => r.includes(ids[0]!) || r.includes("alpha") || r.includes("/no/such"))).toEqual([]);
  });

  it("reports the outbox by status and the age of the oldest due job, read from the database", async () => {
    const storage = make();
    const t = await withMetrics(storage);
    const empty = await scrape(t);
    expect(empty.value("records_outbox_jobs", { status: "pending" })).toBe(0);
    expect(empty.value("records_outbox_jobs", { status: "dead" })).toBe(0);
    expect(empty.value("records_outbox_oldest_due_seconds")).toBe(0);
    // The clock stands at 10:00:00; one job due 90 s ago, one due in an hour, one dead, one done.
    await t.storage.apply({
      outbox: [
        job(1, { nextAttemptAt: "2026-01-15T09:58:30.000000" }),
        job(2, { nextAttemptAt: "2026-01-15T11:00:00.000000" }),
        job(3, { status: "dead", attempts: 12 }),
        job(4, { status: "done", attempts: 1 }),
      ],
    });
    t.clock.advance(2000); // past the one-read-per-scrape window of the previous scrape
    const m = await scrape(t);
    expect(m.value("records_outbox_jobs", { status: "pending" })).toBe(2);
    expect(m.value("records_outbox_jobs", { status: "dead" })).toBe(1);
    expect(m.value("records_outbox_jobs", { status: "done" })).toBeUndefined();
    expect(m.value("records_outbox_oldest_due_seconds")).toBe(92);
    // The database's gauges carry no pid: every process reports the same value.
    expect(m.samples("records_outbox_jobs").every((s) => s.labels.pid === undefined)).toBe(true);
  });

  it("counts tasks running (their leases) and the workers of this process", async () => {
    const t = await withMetrics(make(), ["outbox", "scheduler", "tasks"]);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const running = withLease(t.storage, "task:alpha:0123456789abcdef01234567", { ttlMs: 60_000, clock: t.clock, owner: processLeaseOwner() }, () => held);
    await new Promise((r) => setImmediate(r));
    const m = await scrape(t);
    expect(m.value("records_tasks_running")).toBe(1);
    expect(m.samples("records_workers_running").map((s) => s.labels.worker).sort()).toEqual(["outbox", "scheduler", "tasks"]);
    release();
    await running;
  });

  it("counts open change-feed streams while they are open", async () => {
    const t = await withMetrics(make());
    const subscribers = async () => (await scrape(t)).value("records_change_feed_subscribers", { pid: String(process.pid) });
    expect(await subscribers()).toBe(0);
    const feeds = await Promise.all(
      [1, 2].map(async () => {
        const res = await t.call("GET", "/api/v1/alpha/changes/", { key: KEYS.alice, headers: { accept: "text/event-stream" } });
        expect(res.status).toBe(200);
        return readSse(res.body!);
      }),
    );
    expect(await subscribers()).toBe(2);
    // The stream still flows through the count.
    await seed(t, "alpha", "journal", { kind: "note" });
    expect((await feeds[0]!.events(1))[0]!.data).toMatchObject({ resource_type: "journal" });
    await feeds[0]!.cancel();
    expect(await subscribers()).toBe(1);
    await feeds[1]!.cancel();
    expect(await subscribers()).toBe(0);
    // A refused feed (403) never counted.
    expect((await t.call("GET", "/api/v1/beta/changes/", { key: KEYS.alice, headers: { accept: "text/event-stream" } })).status).toBe(403);
    expect(await subscribers()).toBe(0);
  });
});

describe.each(adapters)("GET /api/v1/health/ on %s", (_name, make) => {
  it("answers without a key: the database, this process's workers and the lease holders (task leases without flock or id)", async () => {
    const t = await withMetrics(make(), ["outbox", "scheduler", "tasks"]);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const owner = processLeaseOwner();
    const leases = Promise.all([
      withLease(t.storage, "scheduler", { ttlMs: 60_000, clock: t.clock, owner }, () => held),
      withLease(t.storage, "task:alpha:0123456789abcdef01234567", { ttlMs: 30_000, clock: t.clock, owner: "elsewhere:1:abc" }, () => held),
    ]);
    await new Promise((r) => setImmediate(r));
    const res = await t.call("GET", "/api/v1/health/");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { leases: unknown[] };
    expect(body).toMatchObject({ message: "ok", database: { reachable: true }, process: { pid: process.pid, workers: ["outbox", "scheduler", "tasks"] } });
    const now = t.clock.now().getTime();
    expect(body.leases).toEqual([
      { name: "scheduler", holder: owner, this_process: true, expires_at: formatTimestamp(new Date(now + 60_000)) },
      { name: "task", holder: "elsewhere:1:abc", this_process: false, expires_at: formatTimestamp(new Date(now + 30_000)) },
    ]);
    expect(JSON.stringify(body)).not.toContain("0123456789abcdef01234567");
    release();
    await leases;
  });

  it("answers 503 naming the database when it does not answer; the process is still reported", async () => {
    const t = await withMetrics(make());
    // The storage the routes hold fails from now on.
    t.storage.getSetting = () => Promise.reject(new Error("connection refused"));
    const res = await t.call("GET", "/api/v1/health/");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: "unavailable",
      error_detail: "the database does not answer",
      database: { reachable: false },
      process: { pid: process.pid, workers: [] },
    });
  });
});
