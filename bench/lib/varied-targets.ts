/**
 * @module bench/lib/varied-targets
 * What the HTTP scenarios with random requests share: the ids and surnames they pick from,
 * a check that one request of each kind succeeds before loading, and the median run's rate.
 */
import Database from "better-sqlite3";
import pg from "pg";
import type { LoadResult } from "./load.js";
import type { VariedRequest } from "./load-varied.js";
import { round3 } from "./measure.js";
import { personBatch } from "./persons.js";
import { BENCH_TOKEN } from "./seed.js";

/** The operations of the random-request HTTP scenarios. */
export type VariedOp = "get by id" | "list with a filter" | "create person";
export const VARIED_OPS: VariedOp[] = ["get by id", "list with a filter", "create person"];
/** Persons generated for the POST bodies. */
export const VARIED_BODIES = 1000;

/**
 * The requests of each operation against a server at `origin`, for persons `ids`: a random
 * id, a random surname of the data set, a random one of `VARIED_BODIES` generated persons.
 * Attributed, as a real client is (unattributed keys are throttled to 60 requests a minute).
 */
export function variedRequests(flock: string, seed: number): { surnames: string[]; at(origin: string, ids: readonly string[]): Record<VariedOp, VariedRequest> } {
  const auth = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/records-bench/1.0" };
  const base = `/api/v1/${flock}/person/`;
  const surnames = datasetSurnames(seed);
  const bodies = personBatch(seed + 1, 0, VARIED_BODIES).map((p) => JSON.stringify(p));
  return {
    surnames,
    at: (origin, ids) => ({
      "get by id": { base: origin, headers: auth, paths: ids.map((id) => `${base}${id}/`) },
      "list with a filter": { base: origin, headers: auth, paths: surnames.map((s) => `${base}?last_name=${encodeURIComponent(s)}`) },
      "create person": { base: origin, method: "POST", headers: { ...auth, "content-type": "application/json" }, paths: [base], bodies },
    }),
  };
}

/** Ids read at random from each database for the GETs. */
export const VARIED_IDS = 50_000;

/** The distinct surnames of the data set's first 10,000 persons (the same on both sides). */
export function datasetSurnames(seed: number): string[] {
  const names = new Set<string>();
  for (let b = 0; b < 10; b++) for (const p of personBatch(seed, b, 1000)) names.add(p.last_name);
  return [...names].sort();
}

/** Up to `VARIED_IDS` person ids of the flock in a SQLite file, in random order. */
export function sqliteIds(file: string, flock: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[string, number], { id: string }>(
        `SELECT id FROM records WHERE cid = (SELECT cid FROM collections WHERE flock = ? AND type = 'person') AND state = 'updated'
         ORDER BY random() LIMIT ?`,
      )
      .all(flock, VARIED_IDS)
      .map((r) => r.id);
  } finally {
    db.close();
  }
}

/** Up to `VARIED_IDS` person ids of the flock in a PostgreSQL database, in random order. */
export async function postgresIds(url: string, flock: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM records WHERE cid = (SELECT cid FROM collections WHERE flock = $1 AND type = 'person') AND state = 'updated'
       ORDER BY random() LIMIT $2`,
      [flock, VARIED_IDS],
    );
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** One request of each kind must succeed before it is loaded. */
export async function checkVaried(req: VariedRequest): Promise<void> {
  const res = await fetch(req.base + req.paths[0]!, { method: req.method ?? "GET", headers: req.headers ?? {}, ...(req.bodies ? { body: req.bodies[0]! } : {}) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${req.method ?? "GET"} ${req.paths[0]}: ${res.status} ${text.slice(0, 200)}`);
}

/** The run with the median rate. */
export function medianRun(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1]!;
}

/** Requests per second, or null when more than 1% of the answers were not 2xx. */
export function rateOf(r: LoadResult): number | null {
  return r.non2xx + r.errors > 0.01 * Math.max(1, r.total) ? null : round3(r.rps);
}
