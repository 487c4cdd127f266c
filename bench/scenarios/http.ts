/**
 * @module bench/scenarios/http
 * Requests per second over HTTP with autocannon (2 connections per core), each server in
 * its own process, one at a time: ours (`records-service serve` on a copy of the seeded
 * file), a bare Hono app answering the bytes ours answered (the limit), and Directus doing
 * the same operation on the same persons (the peer). Operations: get by id, list with an
 * exact filter on last_name, create a person.
 */
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connections, load, type LoadRequest, type LoadResult } from "../lib/load.js";
import { personBatch } from "../lib/persons.js";
import { startServer } from "../lib/proc.js";
import { round3 } from "../lib/measure.js";
import { ensureBuilt, serverCommand, startOurs } from "../lib/our-server.js";
import { BENCH_TOKEN } from "../lib/seed.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";
import { directusPerson, startDirectus } from "../peers/directus.js";

type Op = "get by id" | "list with a filter" | "create person";
const OPS: Op[] = ["get by id", "list with a filter", "create person"];

/** The HTTP scenarios (one scenario: the three servers are started once each). */
export const scenarios: Scenario[] = [{ name: "requests per second", group: "http", run: (ctx) => _run(ctx) }];

// --- internal ---

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset } = ctx;
  const seconds = ctx.quick ? 2 : 5;
  const rounds = ctx.quick ? 1 : 3;
  const warmup = ctx.quick ? 1 : 2;
  const buildProblem = await ensureBuilt(ctx.root, ctx.log);
  const kind = serverCommand(ctx.root).kind;
  const person = personBatch(dataset.seed + 1, 0, 1)[0]!;
  const personJson = JSON.stringify(person);
  const id = dataset.sample.personIds[0]!;
  const lastName = encodeURIComponent(dataset.sample.lastName);
  // Attributed, as a real client is (unattributed keys are throttled to 60 requests a minute).
  const auth = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/records-bench/1.0" };
  const paths = { get: `/api/v1/${dataset.flock}/person/${id}/`, list: `/api/v1/${dataset.flock}/person/?last_name=${lastName}`, create: `/api/v1/${dataset.flock}/person/` };
  const requests = (base: string): Record<Op, LoadRequest> => ({
    "get by id": { url: base + paths.get, headers: auth },
    "list with a filter": { url: base + paths.list, headers: auth },
    "create person": { url: base + paths.create, method: "POST", headers: { ...auth, "content-type": "application/json" }, body: personJson },
  });

  // Every server runs at once (an idle one costs nothing) so that their load runs can be
  // interleaved round by round: a change in the machine's background load hits all alike.
  const targets: { name: "ours" | "hono" | "directus"; reqs: Record<Op, LoadRequest>; runs: Record<Op, LoadResult[]> }[] = [];
  const stops: (() => Promise<void>)[] = [];
  const db = join(ctx.scratchDir, `http-${dataset.size}.db`);
  copyFileSync(dataset.file, db); // creates write to it
  let unavailable = ctx.peers ? undefined : "skipped (--no-peer)";
  try {
    const srv = await startOurs(ctx.root, db);
    stops.push(() => srv.server.stop());
    const bodies = {
      get: await _text(srv.url + paths.get, { headers: auth }, 200),
      list: await _text(srv.url + paths.list, { headers: auth }, 200),
      create: await _text(srv.url + paths.create, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: personJson }, 201),
    };
    targets.push({ name: "ours", reqs: requests(srv.url), runs: _empty() });

    // The bare Hono route answering the same bytes.
    const bodiesFile = join(ctx.scratchDir, "bare-hono-bodies.json");
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const bare = startServer(process.execPath, ["--import", "tsx/esm", join(ctx.root, "bench/peers/bare-hono.ts"), bodiesFile], { cwd: ctx.root });
    stops.push(() => bare.stop());
    const bareUrl = /listening on (http:\/\/\S+)/.exec(await bare.line(/listening on/, 60_000))![1]!;
    targets.push({ name: "hono", reqs: requests(bareUrl), runs: _empty() });

    // Directus on the same persons.
    if (ctx.peers) {
      const started = await startDirectus(ctx.root, dataset, ctx.log);
      if (!started.ok) unavailable = `Directus unavailable: ${started.reason}`;
      else {
        const { peer } = started;
        stops.push(() => peer.stop());
        const h = { authorization: `Bearer ${peer.token}` };
        const reqs: Record<Op, LoadRequest> = {
          "get by id": { url: `${peer.url}/items/person/${peer.personId}`, headers: h },
          // meta=filter_count: Directus then also counts the matches, as our list does.
          "list with a filter": { url: `${peer.url}/items/person?filter[last_name][_eq]=${lastName}&limit=25&meta=filter_count`, headers: h },
          "create person": { url: `${peer.url}/items/person`, method: "POST", headers: { ...h, "content-type": "application/json" }, body: JSON.stringify(directusPerson(person)) },
        };
        await _text(reqs["get by id"].url, { headers: h }, 200);
        await _text(reqs["list with a filter"].url, { headers: h }, 200);
        targets.push({ name: "directus", reqs, runs: _empty() });
      }
    }

    ctx.log(`http: ${targets.map((t) => t.name).join(", ")} (ours ${kind}); ${connections()} connections, ${rounds} x ${seconds} s per operation`);
    for (const op of OPS) {
      for (const t of targets) await load(ctx.root, t.reqs[op], warmup, 0);
      for (let r = 0; r < rounds; r++) {
        for (const t of targets) {
          try {
            t.runs[op].push(await load(ctx.root, t.reqs[op], seconds, 0));
          } catch (e) {
            if (t.name !== "directus") throw e;
            unavailable = `Directus failed: ${(e as Error).message.slice(0, 300)}`;
          }
        }
      }
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  }
  const pick = (name: string) => {
    const t = targets.find((x) => x.name === name);
    if (!t || OPS.some((op) => t.runs[op].length === 0)) return undefined;
    return Object.fromEntries(OPS.map((op) => [op, _medianRun(t.runs[op])])) as Record<Op, LoadResult>;
  };
  const ours = pick("ours")!;
  const hono = pick("hono")!;
  const directus = unavailable ? undefined : pick("directus");

  const note = (r: LoadResult, b?: LoadResult) =>
    [
      `p50 ${r.p50} ms`,
      r.non2xx || r.errors ? `${r.non2xx} non-2xx, ${r.errors} errors` : "",
      b && (b.non2xx || b.errors) ? `baseline ${b.non2xx} non-2xx, ${b.errors} errors` : "",
      kind === "built" ? "" : `server ran from ${kind}${buildProblem ? ` (${buildProblem})` : ""}`,
    ]
      .filter(Boolean)
      .join("; ");
  const out: ScenarioResult[] = [];
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : round3(a / b));
  for (const op of OPS) {
    const [a, b] = [_rate(ours[op]), _rate(hono[op])];
    out.push({
      scenario: `http: ${op} vs bare Hono`,
      ours: a,
      baseline: b,
      baselineName: "bare Hono",
      unit: "req/s",
      ratio: ratio(a, b),
      ...(op === "get by id" ? { target: ">= 0.6" } : {}),
      note: note(ours[op], hono[op]),
    });
  }
  for (const op of OPS) {
    const d = directus?.[op];
    const [a, b] = [_rate(ours[op]), d ? _rate(d) : null];
    out.push({
      scenario: `http: ${op} vs Directus`,
      ours: a,
      baseline: b,
      baselineName: "Directus 12.4.0",
      unit: "req/s",
      ratio: ratio(a, b),
      ...(op === "get by id" ? {} : { target: ">= 5" }),
      note: d ? note(ours[op], d) : unavailable!,
    });
  }
  return out;
}

function _empty(): Record<Op, LoadResult[]> {
  return { "get by id": [], "list with a filter": [], "create person": [] };
}

/** The run with the median rate. */
function _medianRun(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1]!;
}

/** Requests per second, or null when more than 1% of the answers were not 2xx (the figure would not be the operation's). */
function _rate(r: LoadResult): number | null {
  return r.non2xx + r.errors > 0.01 * Math.max(1, r.total) ? null : round3(r.rps);
}

async function _text(url: string, init: RequestInit, status: number): Promise<string> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== status) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}
