/**
 * @module bench/run
 * `npm run bench`: seeds (or reuses) one database per size, runs every scenario module's
 * scenarios at each size, prints the table and writes `bench/results/<timestamp>.json`.
 *
 *   npm run bench -- [--sizes 10k,100k,1M] [--only <group>[,<group>]] [--no-peer] [--quick] [--seed N]
 *                    [--seed-only] [--markdown] [--db sqlite|postgres] [--pg-url URL] [--fresh]
 *
 * `--db postgres` runs the scenarios written for PostgreSQL (`db: "postgres"`) on a database
 * seeded on the server of `--pg-url` (else `RECORDS_BENCH_PG_URL`, else the local server);
 * the SQLite file of the same size is seeded too, for the scenarios that compare with it.
 * `--fresh` seeds the `--db`'s data sets again instead of reusing them.
 *
 * A scenario module (`bench/scenarios/<name>.ts`) exports `scenarios: Scenario[]` (see
 * bench/lib/types.ts); the optional modules are loaded when their file exists.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { dataSources, formatMarkdown, formatTable, growthResults, loadAverage, machine, targetMet, type SizedResult } from "./lib/report.js";
import { ensureDataset, formatSize, parseSize } from "./lib/seed.js";
import { benchServerUrl, databaseBytes, ensurePostgresDataset, seedResult } from "./lib/seed-postgres.js";
import type { BenchContext, Scenario } from "./lib/types.js";

/** Scenario modules, in run order; the ones other work adds are optional. */
const MODULES = ["in-process", "unindexed", "writes", "import", "disk", "events", "bulk", "http", "start-up", "search", "gateway", "event-exports", "postgres-in-process", "postgres-writes", "postgres-http", "postgres-search", "processes"];

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "100k" },
      only: { type: "string" },
      "no-peer": { type: "boolean", default: false },
      quick: { type: "boolean", default: false },
      seed: { type: "string", default: "42" },
      markdown: { type: "boolean", default: false },
      "seed-only": { type: "boolean", default: false },
      db: { type: "string", default: "sqlite" },
      "pg-url": { type: "string" },
      fresh: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      "npm run bench -- [--sizes 10k,100k,1M] [--only in-process,http,writes,start-up] [--no-peer] [--quick] [--seed 42] [--seed-only] [--markdown] [--db sqlite|postgres] [--pg-url URL] [--fresh]",
    );
    return 0;
  }
  const sizes = [...new Set(values.sizes.split(",").map(parseSize))].sort((a, b) => a - b);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, not '${values.seed}'`);
  const only = values.only ? new Set(values.only.split(",").map((s) => s.trim())) : undefined;
  const db = values.db;
  if (db !== "sqlite" && db !== "postgres") throw new Error(`--db must be sqlite or postgres, not '${db}'`);
  const pgServer = db === "postgres" ? benchServerUrl(values["pg-url"]) : undefined;
  const log = (m: string) => process.stderr.write(`${m}\n`);

  const scenarios = await _loadScenarios(log);
  const onDb = scenarios.filter((s) => (s.db ?? "sqlite") === db);
  const groups = new Set(onDb.map((s) => s.group));
  for (const g of only ?? []) if (!groups.has(g)) throw new Error(`--only: no ${db} scenario group '${g}' (groups: ${[...groups].join(", ")})`);
  const selected = onDb.filter((s) => !only || only.has(s.group));

  const dataDir = join(ROOT, "bench", ".data");
  const scratchDir = join(dataDir, "scratch");
  const startedAt = new Date();
  const loadAtStart = loadAverage();
  const results: SizedResult[] = [];
  for (const size of sizes) {
    const seeded = await ensureDataset(dataDir, size, seed, log, { fresh: values.fresh && db === "sqlite" });
    log(`${formatSize(size)}: ${seeded.seeded ? `seeded in ${seeded.seconds.toFixed(0)} s` : "reusing the seeded file"} (${seeded.dataset.file})`);
    let postgres: BenchContext["postgres"];
    if (pgServer) {
      const pgSeeded = await ensurePostgresDataset(pgServer, size, seed, log, { fresh: values.fresh });
      const d = pgSeeded.dataset;
      log(`${formatSize(size)}: ${pgSeeded.seeded ? `seeded in ${pgSeeded.seconds.toFixed(0)} s` : `reusing database ${d.database} (seeded ${d.seededAt})`}`);
      postgres = { server: pgServer, dataset: d };
      const r = seedResult(d, pgSeeded.seeded, await databaseBytes(pgServer, d.database));
      results.push({ ...r, data: `database ${d.database} (${pgSeeded.seeded ? "seeded in this run" : "seeded earlier, reused"})`, size, met: targetMet(r) });
    }
    if (values["seed-only"]) continue;
    for (const s of selected) {
      rmSync(scratchDir, { recursive: true, force: true });
      mkdirSync(scratchDir, { recursive: true });
      const ctx: BenchContext = { dataset: seeded.dataset, sizes, root: ROOT, scratchDir, peers: !values["no-peer"], quick: values.quick, log, ...(postgres ? { postgres } : {}) };
      log(`${formatSize(size)}: ${s.group} / ${s.name}`);
      const began = performance.now();
      try {
        // Scenarios that say nothing of their data read the seeded data set of the size.
        const data =
          s.db === "postgres" && postgres
            ? `database ${postgres.dataset.database} (seeded ${postgres.dataset.seededAt}; copied where it is written)`
            : `${seeded.dataset.file} (${seeded.seeded ? "seeded in this run" : "seeded earlier, reused"}; copied where it is written)`;
        for (const r of await s.run(ctx)) results.push({ ...r, data: r.data ?? data, size, met: r.met ?? targetMet(r) });
      } catch (e) {
        log(`  failed: ${(e as Error).stack ?? String(e)}`);
        results.push({ scenario: `${s.group}: ${s.name}`, size, ours: null, baseline: null, unit: "", ratio: null, note: `failed: ${(e as Error).message.slice(0, 300)}` });
      }
      log(`  ${s.group} / ${s.name}: ${((performance.now() - began) / 1000).toFixed(0)} s`);
    }
  }
  rmSync(scratchDir, { recursive: true, force: true });
  if (values["seed-only"]) {
    if (results.length) console.log(formatTable(results));
    return 0;
  }
  const all = [...results, ...growthResults(results)];

  console.log(formatTable(all));
  console.log(`\nWhere each scenario's data came from:\n${dataSources(all)}`);
  if (values.markdown) console.log(`\n${formatMarkdown(all)}`);
  const file = join(ROOT, "bench", "results", `${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: machine(),
        load: { atStart: loadAtStart, atEnd: loadAverage() },
        args: { sizes, seed, db, only: only ? [...only] : null, peers: !values["no-peer"], quick: values.quick },
        results: all,
      },
      null,
      2,
    )}\n`,
  );
  log(`results written to ${file} (the run took ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s)`);
  const missed = all.filter((r) => r.met === false);
  log(missed.length ? `${missed.length} target(s) missed: ${missed.map((r) => `${r.scenario} @${formatSize(r.size)}`).join("; ")}` : "every target measured was met");
  return 0;
}

/** Imports every scenario module present; a module that fails to load is reported, not fatal. */
async function _loadScenarios(log: (m: string) => void): Promise<Scenario[]> {
  const out: Scenario[] = [];
  for (const name of MODULES) {
    const file = join(ROOT, "bench", "scenarios", `${name}.ts`);
    if (!existsSync(file)) continue;
    try {
      const mod = (await import(pathToFileURL(file).href)) as { scenarios?: Scenario[]; scenario?: Scenario; default?: Scenario | Scenario[] };
      const found = mod.scenarios ?? (mod.scenario ? [mod.scenario] : mod.default ? [mod.default].flat() : []);
      if (found.length === 0) log(`bench/scenarios/${name}.ts exports no 'scenarios'; skipped`);
      out.push(...found);
    } catch (e) {
      log(`bench/scenarios/${name}.ts failed to load: ${(e as Error).message}`);
    }
  }
  return out;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);
