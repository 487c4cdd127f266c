/**
 * @module bench/scenarios/bulk
 * A bulk action over twice the data set's persons (at most 200,000) in the real server process while another flock's
 * reads are requested (once, at the largest size of the run):
 *
 * - the action's records per second (the task's `started_at` to `finished_at`, as the
 *   task worker commits it chunk by chunk);
 * - the worst (and p99) latency of the other flock's reads meanwhile, against the same
 *   reads with no bulk action running: how much the worker's chunks hold up requests.
 *
 * The database is the run's data set (flock `bench`, whose persons the reads ask for)
 * plus a flock `bulk` of twice its persons, at most 200,000 (20,000 with `--quick`), seeded once and cached
 * under bench/.data; each run works on a copy. Standalone: `node --conditions=source
 * --import tsx bench/scenarios/bulk.ts [--size 100k] [--quick]` (default: the 10k data set).
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { derive, parseTimestamp, TASK_CHUNK_SIZE, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import Database from "better-sqlite3";
import { median, round3 } from "../lib/measure.js";
import { ensureBuilt, startOurs } from "../lib/our-server.js";
import { BENCH_TOKEN, BENCH_USER, ensureDataset, formatSize, parseSize } from "../lib/seed.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** The flock the bulk action changes. */
const BULK_FLOCK = "bulk";
/** Concurrent read loops (closed loop: each sends its next request when the last answered). */
const READERS = 4;

/** The bulk scenario. */
export const scenarios: Scenario[] = [
  {
    name: "add_tag over twice the data set's persons (up to 200k) while another flock reads",
    group: "bulk",
    run: (ctx) => (ctx.dataset.size === Math.max(...ctx.sizes) ? runBulkScenario(ctx) : Promise.resolve([])),
  },
];

/** Persons of the bulk flock: twice the data set's, at most 200,000 (20,000 with `--quick`). */
export function bulkCount(size: number, quick: boolean): number {
  return Math.min(2 * size, quick ? 20_000 : 200_000);
}

/** Runs the scenario on `ctx.dataset` and returns its result lines. */
export async function runBulkScenario(ctx: BenchContext): Promise<ScenarioResult[]> {
  const count = bulkCount(ctx.dataset.size, ctx.quick);
  const label = formatSize(count);
  // The action itself takes seconds below 100k: a shorter baseline keeps `--sizes 10k` a few minutes.
  const baselineSec = ctx.quick ? 3 : ctx.dataset.size < 100_000 ? 4 : 8;
  const cached = join(ctx.root, "bench", ".data", `bulk-${label}-on-${basename(ctx.dataset.file)}`);
  if (!existsSync(cached)) await _seedBulkFlock(ctx.dataset.file, cached, count, ctx.log);
  const data = `a copy of ${cached} (${ctx.dataset.file} plus flock ${BULK_FLOCK} of ${count.toLocaleString("en")} generated persons, made once and reused)`;
  const db = join(ctx.scratchDir, "bulk.db");
  copyFileSync(cached, db);
  await _grantBulkFlock(db);

  const buildProblem = await ensureBuilt(ctx.root, ctx.log);
  if (buildProblem) ctx.log(`  ${buildProblem}; running from source`);
  const ours = await startOurs(ctx.root, db);
  try {
    const api = _client(ours.url);
    const reads = _reads(ctx);
    ctx.log(`  baseline: ${READERS} readers of flock ${ctx.dataset.flock} for ${baselineSec} s, no bulk action`);
    const baseline = await _readLoad(api, reads, () => _sleep(baselineSec * 1000));

    ctx.log(`  bulk add_tag over ${count} persons of flock ${BULK_FLOCK}, the same readers meanwhile`);
    const posted = await api("POST", `/api/v1/${BULK_FLOCK}/bulk_action/`, { action: "add_tag", query: {}, value: "bench-bulk", description: "bench" });
    if (posted.status !== 202) throw new Error(`bulk_action answered ${posted.status}: ${JSON.stringify(posted.body)}`);
    const id = (posted.body as { task_id: string }).task_id;
    let task: Record<string, unknown> = {};
    const during = await _readLoad(api, reads, async () => {
      for (;;) {
        const r = await api("GET", `/api/v1/${BULK_FLOCK}/core_event/${id}/`);
        task = (r.body as { data: Record<string, unknown> }).data;
        if (task.tag === "complete" || task.tag === "failed") return;
        await _sleep(250);
      }
    });
    if (task.tag !== "complete") throw new Error(`the bulk task ended ${String(task.tag)}: ${String(task.text_body)}`);
    const result = JSON.parse(task.text_body as string) as { changed: number };
    const seconds = (parseTimestamp(task.finished_at as string)!.getTime() - parseTimestamp(task.started_at as string)!.getTime()) / 1000;
    const rate = result.changed / seconds;
    ctx.log(`  ${result.changed} records in ${seconds.toFixed(1)} s (${rate.toFixed(0)} rec/s); reads: worst ${during.max.toFixed(0)} ms during, ${baseline.max.toFixed(0)} ms before`);
    return [
      {
        scenario: `bulk: add_tag over ${label} records (task worker, chunks of ${TASK_CHUNK_SIZE})`,
        ours: round3(rate),
        baseline: null,
        unit: "rec/s",
        ratio: null,
        rows: result.changed,
        note: `${seconds.toFixed(1)} s from started_at to finished_at; ${during.requests} reads of another flock answered meanwhile`,
        data,
      },
      {
        scenario: "bulk: worst read latency of another flock during the action",
        ours: round3(during.max),
        baseline: round3(baseline.max),
        baselineName: "same reads, no bulk action",
        unit: "ms",
        ratio: round3(during.max / baseline.max),
        target: "< 500 ms",
        note: `p99 ${during.p99.toFixed(1)} ms vs ${baseline.p99.toFixed(1)} ms; median ${during.p50.toFixed(1)} vs ${baseline.p50.toFixed(1)} ms; ${READERS} closed-loop readers; errors ${during.errors + baseline.errors}`,
        data,
      },
    ];
  } finally {
    await ours.server.stop();
  }
}

// --- internal ---

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

function _client(url: string): Api {
  const headers = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/records-bench/1.0" };
  return async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
}

/** The other flock's reads, in turn: a record by id, and a filtered list page. */
function _reads(ctx: BenchContext): string[] {
  const { flock, sample } = ctx.dataset;
  const ids = sample.personIds.slice(0, 50).map((id) => `/api/v1/${flock}/person/${id}/`);
  const list = `/api/v1/${flock}/person/?last_name=${encodeURIComponent(sample.lastName)}&page_size=25`;
  return ids.flatMap((p) => [p, list]);
}

interface LoadStats {
  requests: number;
  errors: number;
  max: number;
  p99: number;
  p50: number;
}

/** Runs `READERS` closed-loop readers until `until` resolves; latencies of every read. */
async function _readLoad(api: Api, paths: string[], until: () => Promise<void>): Promise<LoadStats> {
  const latencies: number[] = [];
  let errors = 0;
  let done = false;
  let next = 0;
  const reader = async () => {
    while (!done) {
      const path = paths[next++ % paths.length]!;
      const t = performance.now();
      const r = await api("GET", path).catch(() => ({ status: 0, body: null }));
      latencies.push(performance.now() - t);
      if (r.status !== 200) errors += 1;
    }
  };
  const readers = Array.from({ length: READERS }, reader);
  await until();
  done = true;
  await Promise.all(readers);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN,
    p50: median(latencies),
  };
}

/** A copy of the data set with flock `bulk` of `count` persons, written through `apply`. */
async function _seedBulkFlock(dataset: string, target: string, count: number, log: (m: string) => void): Promise<void> {
  log(`  seeding flock ${BULK_FLOCK} with ${count} persons into ${target}`);
  const partial = `${target}.partial`;
  for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
  copyFileSync(dataset, partial);
  const storage = createSqliteStorage({ path: partial });
  const created = "2026-01-01T00:00:00.000000";
  try {
    await storage.createFlock({ identifier: BULK_FLOCK, name: "Bulk", created });
    for (let b = 0; b < count; b += 5000) {
      const batch: StoredRecord[] = [];
      for (let i = b; i < Math.min(count, b + 5000); i++) {
        const { data, displayValue } = derive("person", { first_name: `Guest${i}`, last_name: `Gala${i % 100}`, tags: i % 3 === 0 ? ["member"] : null });
        batch.push({ id: `b0${i.toString(16).padStart(22, "0")}`, flock: BULK_FLOCK, type: "person", state: "updated", data, displayValue, created, lastUpdated: created, version: 1 });
      }
      await storage.apply({ records: batch.map((record) => ({ kind: "insert" as const, record })) });
    }
  } finally {
    await storage.close();
  }
  const db = new Database(partial);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  renameSync(partial, target);
}

/** Lets the bench user (whose key the readers use) open the bulk flock too. */
async function _grantBulkFlock(db: string): Promise<void> {
  const storage = createSqliteStorage({ path: db });
  try {
    const user = await storage.getUser(BENCH_USER);
    if (!user) throw new Error(`the data set has no user ${BENCH_USER}`);
    if (!user.flocks.includes(BULK_FLOCK)) await storage.putUser({ ...user, flocks: [...user.flocks, BULK_FLOCK] });
  } finally {
    await storage.close();
  }
}

function _sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// Standalone: seed (or reuse) a 10k data set and run the scenario alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const quick = process.argv.includes("--quick");
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const dataDir = join(root, "bench", ".data");
  const scratchDir = join(dataDir, "scratch-bulk");
  mkdirSync(scratchDir, { recursive: true });
  const sizeArg = process.argv.indexOf("--size");
  const size = sizeArg > 0 ? parseSize(process.argv[sizeArg + 1] ?? "") : 10_000;
  const { dataset } = await ensureDataset(dataDir, size, 42, log);
  const results = await runBulkScenario({ dataset, sizes: [dataset.size], root, scratchDir, peers: false, quick, log });
  rmSync(scratchDir, { recursive: true, force: true });
  console.log(JSON.stringify(results, null, 2));
}
