/**
 * @module bench/scenarios/http
 * Requests per second over HTTP with autocannon (4 connections), each server in its own
 * process, their load runs taking turns: ours (`records-service serve` on a copy of the
 * seeded file) against a hand-written Hono + better-sqlite3 server doing the same work on
 * a plain table built from the same persons (bench/peers/hand-server), and Directus (the
 * peer) when installed. Every request differs (bench/lib/http-targets): get and PUT a
 * random one of up to 50,000 persons' ids, list with `last_name=` a random surname, create
 * a random one of 1,000 generated persons. Write rows carry their p99 latency too.
 * `RECORDS_BENCH_HTTP_OPS=create,put` (a comma list of get, list, create, put, mixed) loads only
 * those operations (the others' rows are then empty). `RECORDS_BENCH_FLOOR=1` adds a third
 * server taking turns for create and PUT: ours on a copy with every value index dropped
 * (bench/lib/value-index-floor), issue 24's measured floor of a write.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { round3 } from "../lib/measure.js";
import { ensureBuilt, serverCommand, startOurs } from "../lib/our-server.js";
import {
  checkRequests,
  compareTargets,
  emptyRuns,
  HTTP_OPS,
  MIXED,
  mixOf,
  loadInTurns,
  medianRun,
  rateOf,
  sqliteIds,
  variedRequests,
  type HttpOp,
  type HttpTarget,
} from "../lib/http-targets.js";
import { startServer } from "../lib/proc.js";
import { dropEveryValueIndexSqlite, FLOOR_OPS } from "../lib/value-index-floor.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";
import { prepareHandSqlite } from "../peers/hand-server.js";
import { directusPerson, startDirectus } from "../peers/directus.js";

/** Connections of every load run (the p99 targets of issue 11 are "under 4 connections"). */
export const HTTP_CONNECTIONS = 4;

/** The short names `RECORDS_BENCH_HTTP_OPS` takes. */
const OP_NAMES: Record<string, HttpOp> = { get: "get by id", list: "list with a filter", create: "create person", put: "update person (PUT)", mixed: "mixed 8:1:1 (get, list, PUT)" };

/** The HTTP scenarios (one scenario: the servers are started once each). */
export const scenarios: Scenario[] = [{ name: "requests per second", group: "http", run: (ctx) => _run(ctx) }];

// --- internal ---

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset } = ctx;
  // Shorter runs on the small data sets, so `--sizes 10k` stays a few minutes.
  const seconds = ctx.quick ? 2 : dataset.size < 100_000 ? 2 : 5;
  const rounds = ctx.quick ? 1 : 3;
  const warmup = 1;
  const buildProblem = await ensureBuilt(ctx.root, ctx.log);
  const kind = serverCommand(ctx.root).kind;
  const db = join(ctx.scratchDir, `http-${dataset.size}.db`);
  const handDb = join(ctx.scratchDir, `hand-${dataset.size}.db`);
  const floorDb = join(ctx.scratchDir, `floor-${dataset.size}.db`);
  const targets: HttpTarget[] = [];
  const stops: (() => Promise<void>)[] = [];
  let directusNote = ctx.peers ? undefined : "skipped (--no-peer)";
  try {
    copyFileSync(dataset.file, db); // creates and PUTs write to it
    prepareHandSqlite(dataset.file, handDb);
    const ids = sqliteIds(db, dataset.flock);
    const srv = await startOurs(ctx.root, db);
    stops.push(() => srv.server.stop());
    targets.push({ name: "ours", reqs: variedRequests(srv.url, dataset.flock, ids, dataset.seed, HTTP_CONNECTIONS), runs: emptyRuns() });

    const hand = startServer(process.execPath, ["--import", "tsx/esm", join(ctx.root, "bench/peers/hand-server.ts"), "sqlite", handDb], { cwd: ctx.root });
    stops.push(() => hand.stop());
    const handUrl = /listening on (http:\/\/\S+)/.exec(await hand.line(/listening on/, 60_000))![1]!;
    targets.push({ name: "hand", reqs: variedRequests(handUrl, dataset.flock, ids, dataset.seed, HTTP_CONNECTIONS), runs: emptyRuns() });
    if (_floor()) {
      copyFileSync(dataset.file, floorDb);
      const dropped = await dropEveryValueIndexSqlite(floorDb, dataset.flock);
      const floor = await startOurs(ctx.root, floorDb);
      stops.push(() => floor.server.stop());
      ctx.log(`http: the floor server keeps no value entry (${dropped} fields dropped)`);
      targets.push({ name: "floor", reqs: variedRequests(floor.url, dataset.flock, ids, dataset.seed, HTTP_CONNECTIONS), runs: emptyRuns(), only: FLOOR_OPS });
    }
    for (const t of targets) await checkRequests(t.reqs);

    if (ctx.peers) {
      const started = await startDirectus(ctx.root, dataset, ctx.log);
      if (!started.ok) directusNote = `Directus unavailable: ${started.reason}`;
      else {
        const { peer } = started;
        stops.push(() => peer.stop());
        const reqs = variedRequests(peer.url, dataset.flock, [String(peer.personId)], dataset.seed, HTTP_CONNECTIONS);
        const h = { authorization: `Bearer ${peer.token}` };
        const json = { ...h, "content-type": "application/json" };
        reqs["get by id"] = { ...reqs["get by id"], headers: h, paths: [`/items/person/${peer.personId}`] };
        // meta=filter_count: Directus then also counts the matches, as our list does.
        reqs["list with a filter"] = { ...reqs["list with a filter"], headers: h, paths: reqs["list with a filter"].paths.map((p) => `/items/person?filter[last_name][_eq]=${p.split("last_name=")[1]}&limit=25&meta=filter_count`) };
        reqs["create person"] = { ...reqs["create person"], headers: json, paths: ["/items/person"], bodies: reqs["create person"].bodies!.map((b) => JSON.stringify(directusPerson(JSON.parse(b)))) };
        reqs["update person (PUT)"] = { ...reqs["update person (PUT)"], method: "PATCH", headers: json, paths: [`/items/person/${peer.personId}`] };
        reqs[MIXED] = mixOf(reqs["get by id"], reqs["list with a filter"], reqs["update person (PUT)"]);
        targets.push({ name: "directus", reqs, runs: emptyRuns() });
      }
    }

    ctx.log(`http: ${targets.map((t) => t.name).join(", ")} (ours ${kind}); ${HTTP_CONNECTIONS} connections, ${rounds} x ${seconds} s per operation, random requests`);
    await loadInTurns(ctx.root, join(ctx.scratchDir, "varied-request.json"), targets, { seconds, rounds, warmup, ops: _selectedOps() });
  } catch (e) {
    if (targets.find((t) => t.name === "directus")) directusNote = `Directus failed: ${(e as Error).message.slice(0, 300)}`;
    throw e;
  } finally {
    for (const stop of stops.reverse()) await stop();
    for (const f of [db, handDb, floorDb]) for (const x of [f, `${f}-wal`, `${f}-shm`]) rmSync(x, { force: true });
  }
  const [ours, hand] = [targets.find((t) => t.name === "ours")!, targets.find((t) => t.name === "hand")!];
  const extra = kind === "built" ? "" : `server ran from ${kind}${buildProblem ? ` (${buildProblem})` : ""}`;
  const data = `a copy of ${dataset.file}; the hand-written server's table built from its persons`;
  const loaded = new Set(_selectedOps());
  const out: ScenarioResult[] = compareTargets("http", ours, hand, "hand-written Hono + SQLite", extra, [...loaded]).map((r) => ({ ...r, data }));
  const floor = targets.find((t) => t.name === "floor");
  if (floor) {
    const writes = FLOOR_OPS.filter((op) => loaded.has(op));
    const rows = compareTargets("http floor", floor, hand, "hand-written Hono + SQLite", "ours with every value index dropped (issue 24's floor)", writes);
    // The floor is what the targets are read against, not a target of its own.
    out.push(...rows.map(({ target: _target, ...r }) => ({ ...r, data })));
  }
  const directus = targets.find((t) => t.name === "directus");
  for (const op of HTTP_OPS.filter((o) => loaded.has(o))) {
    const a = rateOf(medianRun(ours.runs[op]));
    const b = directus ? rateOf(medianRun(directus.runs[op])) : null;
    out.push({
      scenario: `http: ${op} vs Directus`,
      ours: a,
      baseline: b,
      baselineName: "Directus 12.4.0",
      unit: "req/s",
      ratio: a === null || b === null ? null : round3(a / b),
      ...(op === "get by id" || op === MIXED ? {} : { target: ">= 5" }),
      note: directus ? "Directus: one person id for get and PATCH (its ids are its own)" : directusNote!,
      data,
    });
  }
  return out;
}

/** `RECORDS_BENCH_FLOOR=1`: also measure the writes' floor (see the module comment). */
function _floor(): boolean {
  return process.env.RECORDS_BENCH_FLOOR === "1";
}

/** The operations `RECORDS_BENCH_HTTP_OPS` names, else all. */
function _selectedOps(): HttpOp[] {
  const raw = process.env.RECORDS_BENCH_HTTP_OPS?.trim();
  if (!raw) return [...HTTP_OPS];
  return raw.split(",").map((n) => {
    const op = OP_NAMES[n.trim()];
    if (!op) throw new Error(`RECORDS_BENCH_HTTP_OPS: '${n}' is none of ${Object.keys(OP_NAMES).join(", ")}`);
    return op;
  });
}
