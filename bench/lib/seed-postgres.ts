/**
 * @module bench/lib/seed-postgres
 * The PostgreSQL data sets of `npm run bench -- --db postgres`: one database per size and
 * seed on the bench server (`records_bench_<size>_s<seed>`), seeded through
 * `createPostgresStorage(...).apply` with the same persons as the SQLite file (bench/lib/seed),
 * then `VACUUM ANALYZE`d (what autovacuum does to a table after a bulk load). A finished
 * database carries its description as its comment (`COMMENT ON DATABASE`), so it is reused
 * across runs like bench/.data/ is for SQLite; a database without one (an interrupted seed),
 * of another format, or `--fresh`, is dropped and seeded again. Scenarios that write work on
 * a copy (`copyDatabase`, a `CREATE DATABASE ... TEMPLATE`), never on the seeded one.
 */
import { createPostgresStorage } from "@records-service/postgres";
import pg from "pg";
import { BENCH_FLOCK, formatSize, seedStorage } from "./seed.js";
import type { PostgresDataset, ScenarioResult } from "./types.js";

/** The bench server when neither `--pg-url` nor `RECORDS_BENCH_PG_URL` names one. */
const DEFAULT_PG_SERVER = "postgres://postgres@127.0.0.1:5432/";

/** Bump when what is seeded (or how) changes, so old databases are seeded again. */
const FORMAT = 2;

/** A seeded database, and whether it was seeded now. */
export interface PostgresSeedOutcome {
  dataset: PostgresDataset;
  seeded: boolean;
  /** Seconds this run spent seeding (0 when reused). */
  seconds: number;
}

/** The server URL: the flag, else `RECORDS_BENCH_PG_URL`, else the local server. */
export function benchServerUrl(flag?: string): string {
  return flag || process.env.RECORDS_BENCH_PG_URL || DEFAULT_PG_SERVER;
}

/** `server` with database `name` as its path. */
function databaseUrl(server: string, name: string): string {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The seeded database for `size` and `seed` on `server`, seeding it first when missing,
 * unfinished, stale or `fresh`.
 *
 * @example
 * const { dataset } = await ensurePostgresDataset("postgres://postgres@127.0.0.1:5432/", 100_000, 42, console.error);
 */
export async function ensurePostgresDataset(
  server: string,
  size: number,
  seed: number,
  log: (m: string) => void,
  opts: { fresh?: boolean } = {},
): Promise<PostgresSeedOutcome> {
  const database = `records_bench_${formatSize(size).toLowerCase()}_s${seed}`;
  const url = databaseUrl(server, database);
  if (!opts.fresh) {
    const meta = await _admin(server, async (c) => {
      const { rows } = await c.query<{ comment: string | null }>(
        "SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1",
        [database],
      );
      return rows[0]?.comment ? _parseMeta(rows[0].comment) : undefined;
    });
    if (meta && meta.format === FORMAT && meta.dataset.size === size && meta.dataset.seed === seed) {
      return { dataset: { ...meta.dataset, url, database }, seeded: false, seconds: 0 };
    }
  }
  await dropDatabase(server, database);
  await _admin(server, (c) => c.query(`CREATE DATABASE ${database}`));
  log(`seeding ${formatSize(size)} persons (seed ${seed}) into PostgreSQL database ${database}`);
  const started = performance.now();
  const storage = await createPostgresStorage({ url }, { watchChanges: false, poolSize: 2, statementTimeoutMs: 0 });
  let sample;
  try {
    sample = await seedStorage(storage, size, seed, log, Date.now());
  } finally {
    await storage.close();
  }
  const seedSeconds = (performance.now() - started) / 1000;
  log(`  seeded in ${seedSeconds.toFixed(0)} s; VACUUM ANALYZE`);
  const vacuumStarted = performance.now();
  await _on(url, (c) => c.query("VACUUM ANALYZE"));
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const dataset: PostgresDataset = {
    size,
    seed,
    flock: BENCH_FLOCK,
    sample,
    url,
    database,
    seedSeconds,
    vacuumSeconds,
    seededAt: new Date().toISOString(),
  };
  const meta = JSON.stringify({ format: FORMAT, dataset: { ...dataset, url: undefined } });
  await _admin(server, (c) => c.query(`COMMENT ON DATABASE ${database} IS ${_literal(meta)}`));
  return { dataset, seeded: true, seconds: (performance.now() - started) / 1000 };
}

/**
 * The seeding figure of a data set: seconds through `apply` (the VACUUM ANALYZE after it
 * noted apart), with the target of 10 minutes at 1M persons.
 */
export function seedResult(d: PostgresDataset, seededNow: boolean, bytes: number): ScenarioResult {
  const records = d.size + Math.floor(d.size / 2) + Math.floor(d.size / 4);
  return {
    scenario: `seed (PostgreSQL): ${formatSize(d.size)} persons, ${records} records through apply`,
    ours: Math.round(d.seedSeconds),
    baseline: null,
    unit: "s",
    ratio: null,
    ...(d.size === 1_000_000 ? { target: "<= 600 s" } : {}),
    note: [
      `${Math.round(records / d.seedSeconds)} records/s`,
      `VACUUM ANALYZE ${Math.round(d.vacuumSeconds)} s`,
      `${(bytes / 2 ** 30).toFixed(2)} GiB`,
      seededNow ? "seeded in this run" : `seeded ${d.seededAt}`,
    ].join("; "),
  };
}

/**
 * A copy of database `from` named `to` (replacing one left by an earlier run), for
 * scenarios that write; returns its URL. `from` must have no open connections.
 *
 * @example
 * const url = await copyDatabase(server, "records_bench_100k_s42", "records_bench_100k_s42_http");
 */
export async function copyDatabase(server: string, from: string, to: string): Promise<string> {
  await dropDatabase(server, to);
  // FILE_COPY: one checkpoint and a copy of the files, far faster than WAL-logging every page.
  await _admin(server, (c) => c.query(`CREATE DATABASE ${to} TEMPLATE ${from} STRATEGY FILE_COPY`));
  return databaseUrl(server, to);
}

/** Drops database `name` when it exists (closing its connections). */
export async function dropDatabase(server: string, name: string): Promise<void> {
  await _admin(server, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** The size of database `name` in bytes. */
export async function databaseBytes(server: string, name: string): Promise<number> {
  return _admin(server, async (c) => Number((await c.query<{ n: string }>("SELECT pg_database_size($1) AS n", [name])).rows[0]!.n));
}

// --- internal ---

interface _Meta {
  format: number;
  dataset: Omit<PostgresDataset, "url" | "database">;
}

function _parseMeta(text: string): _Meta | undefined {
  try {
    return JSON.parse(text) as _Meta;
  } catch {
    return undefined;
  }
}

/** A string literal (COMMENT takes no parameters). */
function _literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Runs `fn` on the server's maintenance database (`postgres`, or the URL's own). */
async function _admin<T>(server: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const u = new URL(server);
  if (u.pathname === "" || u.pathname === "/") u.pathname = "/postgres";
  return _on(u.toString(), fn);
}

async function _on<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}
