/**
 * @module bench/scenarios/processes
 * Issue 10: requests per second of `records-service serve --processes 2` against the same
 * server with one process, on the same data: each on a copy of the seeded data set (a
 * SQLite file, or with `--db postgres` a copy of the PostgreSQL database), both running,
 * their load runs interleaved round by round (alternating which goes first) so that a
 * change in the machine's background load hits both alike. Every request differs
 * (bench/lib/http-targets): get a random one of up to 50,000 persons' ids, list with
 * `last_name=` a random surname, create a random one of 1,000 generated persons. Targets:
 * reads at least 1.6 times one process, creates at least 0.9 times. The load generator
 * runs on the same cores; the runner records the load average beside the figures.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { connections } from "../lib/load.js";
import { round3 } from "../lib/measure.js";
import { ensureBuilt, serverCommand, startOurs } from "../lib/our-server.js";
import { copyDatabase, dropDatabase } from "../lib/seed-postgres.js";
import {
  checkRequests,
  emptyRuns,
  loadInTurns,
  medianRun,
  postgresIds,
  rateOf,
  requestSource,
  sqliteIds,
  variedRequests,
  type HttpOp,
  type HttpTarget,
} from "../lib/http-targets.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** The operations compared (a PUT adds nothing a create does not show here). */
const OPS: readonly HttpOp[] = ["get by id", "list with a filter", "create person"];
const TARGETS: Partial<Record<HttpOp, string>> = { "get by id": ">= 1.6", "list with a filter": ">= 1.6", "create person": ">= 0.9" };

/** One scenario per database kind: 2 processes against 1. */
export const scenarios: Scenario[] = [
  { name: "2 processes vs 1", group: "processes", run: (ctx) => _run(ctx, "sqlite") },
  { name: "2 processes vs 1", group: "processes", db: "postgres", run: (ctx) => _run(ctx, "postgres") },
];

// --- internal ---

async function _run(ctx: BenchContext, kindOfDb: "sqlite" | "postgres"): Promise<ScenarioResult[]> {
  const { dataset } = ctx;
  // As the HTTP scenarios: shorter runs on the small data sets, so `--sizes 10k` stays a few minutes.
  const seconds = ctx.quick ? 2 : dataset.size < 100_000 ? 2 : 5;
  const rounds = ctx.quick ? 1 : 3;
  const warmup = 1;
  const buildProblem = await ensureBuilt(ctx.root, ctx.log);
  const kind = serverCommand(ctx.root).kind;

  const targets: HttpTarget[] = [];
  const stops: (() => Promise<void>)[] = [];
  const files: string[] = [];
  const copies: string[] = [];
  try {
    for (const processes of [1, 2] as const) {
      // A copy each (creates write to it), so both start from the same data.
      let db: string;
      let ids: string[];
      if (kindOfDb === "sqlite") {
        db = join(ctx.scratchDir, `processes-${processes}-${dataset.size}.db`);
        files.push(db);
        copyFileSync(dataset.file, db);
        ids = sqliteIds(db, dataset.flock);
      } else {
        const { server, dataset: pgData } = ctx.postgres!;
        const copy = `${pgData.database}_procs${processes}`;
        copies.push(copy);
        ctx.log(`  copying ${pgData.database} to ${copy}`);
        db = await copyDatabase(server, pgData.database, copy);
        ids = await postgresIds(db, pgData.flock);
      }
      const srv = await startOurs(ctx.root, db, ["--processes", String(processes)]);
      stops.push(() => srv.server.stop());
      const reqs = variedRequests(srv.url, dataset.flock, ids, dataset.seed);
      await checkRequests(reqs);
      targets.push({ name: `${processes}`, reqs, runs: emptyRuns() });
    }

    ctx.log(`processes (${kindOfDb}): 1 and 2 processes (${kind}); ${connections()} connections, ${rounds} x ${seconds} s per operation, random requests`);
    await loadInTurns(ctx.root, join(ctx.scratchDir, "varied-request.json"), targets, { seconds, rounds, warmup, ops: OPS });
  } finally {
    for (const stop of stops.reverse()) await stop();
    for (const f of files) for (const x of [f, `${f}-wal`, `${f}-shm`]) rmSync(x, { force: true });
    for (const copy of copies) await dropDatabase(ctx.postgres!.server, copy);
  }

  const [one, two] = targets as [HttpTarget, HttpTarget];
  const label = kindOfDb === "sqlite" ? "SQLite" : "PostgreSQL";
  return OPS.map((op) => {
    const [a, b] = [medianRun(two.runs[op]), medianRun(one.runs[op])];
    const [ra, rb] = [rateOf(a), rateOf(b)];
    return {
      scenario: `processes (${label}): ${op}, 2 processes vs 1`,
      ours: ra,
      baseline: rb,
      baselineName: "1 process",
      unit: "req/s",
      ratio: ra === null || rb === null ? null : round3(ra / rb),
      target: TARGETS[op],
      note: [
        `p50 ${a.p50} / ${b.p50} ms`,
        a.non2xx || a.errors ? `${a.non2xx} non-2xx, ${a.errors} errors` : "",
        b.non2xx || b.errors ? `1 process: ${b.non2xx} non-2xx, ${b.errors} errors` : "",
        requestSource(op, one.reqs[op]),
        kind === "built" ? "" : `server ran from ${kind}${buildProblem ? ` (${buildProblem})` : ""}`,
      ]
        .filter(Boolean)
        .join("; "),
    };
  });
}
