/**
 * @module bench/scenarios/postgres-http
 * `--db postgres`: requests per second over HTTP of `records-service serve` on a copy of the
 * PostgreSQL data set, against the same server on a copy of the SQLite file of the same
 * size and against the hand-written Hono + pg server (bench/peers/hand-server) on its own
 * copy, in the same run (all running, their load runs taking turns). Every request differs
 * (bench/lib/http-targets): get and PUT a random one of up to 50,000 persons' ids, list
 * with `last_name=` a random surname of the data set, create a random one of 1,000
 * generated persons; so the single-record response cache is not what is measured.
 * `RECORDS_BENCH_FLOOR=1` adds ours on a fourth copy with every value index dropped
 * (bench/lib/value-index-floor) for create and PUT: issue 24's measured floor of a write.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  checkRequests,
  emptyRuns,
  compareTargets,
  HTTP_OPS,
  loadInTurns,
  medianRun,
  postgresIds,
  rateOf,
  requestSource,
  sqliteIds,
  variedRequests,
  type HttpTarget,
} from "../lib/http-targets.js";
import { round3 } from "../lib/measure.js";
import { ensureBuilt, serverCommand, startOurs } from "../lib/our-server.js";
import { startServer } from "../lib/proc.js";
import { copyDatabase, dropDatabase } from "../lib/seed-postgres.js";
import { dropEveryValueIndexPostgres, FLOOR_OPS } from "../lib/value-index-floor.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";
import { prepareHandPostgres } from "../peers/hand-server.js";
import { HTTP_CONNECTIONS } from "./http.js";

/** The HTTP scenarios on PostgreSQL (one scenario: the servers are started once). */
export const scenarios: Scenario[] = [{ name: "requests per second", group: "http", db: "postgres", run: (ctx) => _run(ctx) }];

// --- internal ---

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { server, dataset: pgData } = ctx.postgres!;
  const { dataset } = ctx;
  const seconds = ctx.quick ? 2 : dataset.size < 100_000 ? 2 : 5;
  const rounds = ctx.quick ? 1 : 3;
  const warmup = 1;
  const buildProblem = await ensureBuilt(ctx.root, ctx.log);
  const kind = serverCommand(ctx.root).kind;
  const file = join(ctx.scratchDir, `http-${dataset.size}.db`);
  const copy = `${pgData.database}_http`;
  const handCopy = `${pgData.database}_hand`;
  const floorCopy = `${pgData.database}_floor`;
  const floor = process.env.RECORDS_BENCH_FLOOR === "1";
  const targets: HttpTarget[] = [];
  const stops: (() => Promise<void>)[] = [];
  try {
    copyFileSync(dataset.file, file); // creates write to it
    ctx.log(`  copying ${pgData.database} to ${copy} and ${handCopy}`);
    const url = await copyDatabase(server, pgData.database, copy);
    const handUrl = await copyDatabase(server, pgData.database, handCopy);
    await prepareHandPostgres(handUrl);
    const idsSqlite = sqliteIds(file, dataset.flock);
    const idsPg = await postgresIds(url, pgData.flock);
    for (const [name, db, ids] of [
      ["sqlite", file, idsSqlite],
      ["postgres", url, idsPg],
    ] as const) {
      const srv = await startOurs(ctx.root, db);
      stops.push(() => srv.server.stop());
      targets.push({ name, reqs: variedRequests(srv.url, dataset.flock, ids, dataset.seed, HTTP_CONNECTIONS), runs: emptyRuns() });
    }
    const hand = startServer(process.execPath, ["--import", "tsx/esm", join(ctx.root, "bench/peers/hand-server.ts"), "postgres", handUrl], { cwd: ctx.root });
    stops.push(() => hand.stop());
    const handOrigin = /listening on (http:\/\/\S+)/.exec(await hand.line(/listening on/, 60_000))![1]!;
    targets.push({ name: "hand", reqs: variedRequests(handOrigin, dataset.flock, idsPg, dataset.seed, HTTP_CONNECTIONS), runs: emptyRuns() });
    if (floor) {
      const floorUrl = await copyDatabase(server, pgData.database, floorCopy);
      const dropped = await dropEveryValueIndexPostgres(floorUrl, pgData.flock);
      const srv = await startOurs(ctx.root, floorUrl);
      stops.push(() => srv.server.stop());
      ctx.log(`http: the floor server keeps no value entry (${dropped} fields dropped)`);
      targets.push({ name: "floor", reqs: variedRequests(srv.url, dataset.flock, idsPg, dataset.seed, HTTP_CONNECTIONS), runs: emptyRuns(), only: FLOOR_OPS });
    }
    for (const t of targets) await checkRequests(t.reqs);

    ctx.log(`http: ours on SQLite and on PostgreSQL, hand-written on PostgreSQL (${kind}); ${HTTP_CONNECTIONS} connections, ${rounds} x ${seconds} s per operation, random requests`);
    await loadInTurns(ctx.root, join(ctx.scratchDir, "varied-request.json"), targets, { seconds, rounds, warmup });
  } finally {
    for (const stop of stops.reverse()) await stop();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    await dropDatabase(server, copy);
    await dropDatabase(server, handCopy);
    if (floor) await dropDatabase(server, floorCopy);
  }

  const [lite, post, hand] = ["sqlite", "postgres", "hand"].map((n) => targets.find((t) => t.name === n)!) as [HttpTarget, HttpTarget, HttpTarget];
  const extra = kind === "built" ? "" : `server ran from ${kind}${buildProblem ? ` (${buildProblem})` : ""}`;
  const data = `copies of database ${pgData.database} (ours, and the hand-written server's table built from its persons) and of ${dataset.file}`;
  const vsSqlite: ScenarioResult[] = HTTP_OPS.map((op) => {
    const [a, b] = [medianRun(post.runs[op]), medianRun(lite.runs[op])];
    const [ra, rb] = [rateOf(a), rateOf(b)];
    return {
      scenario: `http (PostgreSQL): ${op} vs SQLite`,
      ours: ra,
      baseline: rb,
      baselineName: "SQLite",
      unit: "req/s",
      ratio: ra === null || rb === null ? null : round3(ra / rb),
      target: ">= 0.5",
      note: [
        `p50 ${a.p50} / ${b.p50} ms`,
        a.non2xx || a.errors ? `${a.non2xx} non-2xx, ${a.errors} errors` : "",
        b.non2xx || b.errors ? `SQLite ${b.non2xx} non-2xx, ${b.errors} errors` : "",
        requestSource(op, post.reqs[op]),
        extra,
      ]
        .filter(Boolean)
        .join("; "),
      data,
    };
  });
  const floorTarget = targets.find((t) => t.name === "floor");
  // The floor is what the targets are read against, not a target of its own.
  const floorRows = floorTarget
    ? compareTargets("http (PostgreSQL) floor", floorTarget, hand, "hand-written Hono + pg", "ours with every value index dropped (issue 24's floor)", FLOOR_OPS).map(({ target: _target, ...r }) => ({ ...r, data }))
    : [];
  return [...vsSqlite, ...compareTargets("http (PostgreSQL)", post, hand, "hand-written Hono + pg", extra).map((r) => ({ ...r, data })), ...floorRows];
}

