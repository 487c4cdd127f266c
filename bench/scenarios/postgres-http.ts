/**
 * @module bench/scenarios/postgres-http
 * `--db postgres`: requests per second over HTTP of `records-service serve` on a copy of the
 * PostgreSQL data set against the same server on a copy of the SQLite file of the same
 * size, in the same run (both running, their load runs interleaved round by round).
 * Every request differs (bench/lib/load-varied): get a random one of up to 50,000 persons'
 * ids, list with `last_name=` a random surname of the data set, create a random one of
 * 1,000 generated persons; so the single-record response cache is not what is measured.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { connections, type LoadResult } from "../lib/load.js";
import { loadVaried, type VariedRequest } from "../lib/load-varied.js";
import { round3 } from "../lib/measure.js";
import { ensureBuilt, serverCommand, startOurs } from "../lib/our-server.js";
import { copyDatabase, dropDatabase } from "../lib/seed-postgres.js";
import { checkVaried, medianRun, postgresIds, rateOf, sqliteIds, VARIED_BODIES, VARIED_OPS, variedRequests, type VariedOp } from "../lib/varied-targets.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

type Op = VariedOp;
const OPS = VARIED_OPS;

/** The HTTP scenarios on PostgreSQL (one scenario: both servers are started once). */
export const scenarios: Scenario[] = [{ name: "requests per second", group: "http", db: "postgres", run: (ctx) => _run(ctx) }];

// --- internal ---


interface _Target {
  name: "sqlite" | "postgres";
  reqs: Record<Op, VariedRequest>;
  runs: Record<Op, LoadResult[]>;
}

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { server, dataset: pgData } = ctx.postgres!;
  const { dataset } = ctx;
  const seconds = ctx.quick ? 2 : 5;
  const rounds = ctx.quick ? 1 : 3;
  const warmup = ctx.quick ? 1 : 2;
  const buildProblem = await ensureBuilt(ctx.root, ctx.log);
  const kind = serverCommand(ctx.root).kind;
  const { surnames, at: requests } = variedRequests(dataset.flock, dataset.seed);

  const file = join(ctx.scratchDir, `http-${dataset.size}.db`);
  const copy = `${pgData.database}_http`;
  const targets: _Target[] = [];
  const stops: (() => Promise<void>)[] = [];
  try {
    copyFileSync(dataset.file, file); // creates write to it
    ctx.log(`  copying ${pgData.database} to ${copy}`);
    const url = await copyDatabase(server, pgData.database, copy);
    const idsSqlite = sqliteIds(file, dataset.flock);
    const idsPg = await postgresIds(url, pgData.flock);
    for (const [name, db, ids] of [
      ["sqlite", file, idsSqlite],
      ["postgres", url, idsPg],
    ] as const) {
      const srv = await startOurs(ctx.root, db);
      stops.push(() => srv.server.stop());
      const reqs = requests(srv.url, ids);
      for (const op of OPS) await checkVaried(reqs[op]);
      targets.push({ name, reqs, runs: { "get by id": [], "list with a filter": [], "create person": [] } });
    }

    ctx.log(`http: ours on SQLite and on PostgreSQL (${kind}); ${connections()} connections, ${rounds} x ${seconds} s per operation, random requests`);
    const scratch = join(ctx.scratchDir, "varied-request.json");
    for (const op of OPS) {
      for (const t of targets) await loadVaried(ctx.root, scratch, t.reqs[op], warmup, 0);
      for (let r = 0; r < rounds; r++) {
        // Alternate which goes first, so neither always follows the other's writes.
        for (const t of r % 2 ? [...targets].reverse() : targets) t.runs[op].push(await loadVaried(ctx.root, scratch, t.reqs[op], seconds, 0));
      }
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    await dropDatabase(server, copy);
  }

  const [lite, post] = [targets.find((t) => t.name === "sqlite")!, targets.find((t) => t.name === "postgres")!];
  return OPS.map((op) => {
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
        op === "get by id" ? `random of ${post.reqs[op].paths.length} ids` : op === "list with a filter" ? `random of ${surnames.length} surnames` : `random of ${VARIED_BODIES} bodies`,
        kind === "built" ? "" : `server ran from ${kind}${buildProblem ? ` (${buildProblem})` : ""}`,
      ]
        .filter(Boolean)
        .join("; "),
    };
  });
}
