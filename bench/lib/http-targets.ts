/**
 * @module bench/lib/http-targets
 * What the HTTP scenarios share: the varied requests of each operation (random ids of the
 * data set, random surnames, random generated bodies: never one repeated request), the
 * ids read from a SQLite file or a PostgreSQL database, the interleaved load rounds, and
 * the median run and its rate.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { type LoadResult } from "./load.js";
import { loadVaried, type VariedRequest } from "./load-varied.js";
import { round3 } from "./measure.js";
import { personBatch } from "./persons.js";
import { BENCH_TOKEN } from "./seed.js";
import type { ScenarioResult } from "./types.js";

/** The operations measured over HTTP. */
export type HttpOp = "get by id" | "list with a filter" | "create person" | "update person (PUT)" | "mixed 8:1:1 (get, list, PUT)";
export const HTTP_OPS: readonly HttpOp[] = ["get by id", "list with a filter", "create person", "update person (PUT)", "mixed 8:1:1 (get, list, PUT)"];

/** The mixed operation: issue 24's 8:1:1 of gets, lists and PUTs. */
export const MIXED: HttpOp = "mixed 8:1:1 (get, list, PUT)";

/**
 * The mixed load of `get`, `list` and `put`: each connection sends 8 gets, a list and a PUT
 * in turn, every one random as in its own operation.
 */
export function mixOf(get: VariedRequest, list: VariedRequest, put: VariedRequest): VariedRequest {
  const step = (r: VariedRequest) => ({ method: r.method ?? "GET", headers: r.headers ?? {}, paths: r.paths, ...(r.bodies ? { bodies: r.bodies } : {}) });
  return { base: get.base, paths: get.paths, ...(get.connections ? { connections: get.connections } : {}), mix: [...Array.from({ length: 8 }, () => step(get)), step(list), step(put)] };
}

/** Ids read at random from each database for the GETs and PUTs. */
const RANDOM_IDS = 50_000;
/** Bodies generated for the POSTs and PUTs. */
const RANDOM_BODIES = 1000;

/** A server under load: its requests per operation and the runs measured so far. */
export interface HttpTarget {
  name: string;
  reqs: Record<HttpOp, VariedRequest>;
  runs: Record<HttpOp, LoadResult[]>;
  /** The operations this target takes part in; default every one loaded. */
  only?: readonly HttpOp[];
}

/** The bench key's headers: attributed, as a real client is (unattributed keys are throttled). */
const BENCH_AUTH = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/records-bench/1.0" } as const;

/**
 * The varied requests of every operation against `origin`, for the persons `ids` of
 * `flock`; `seed` picks the surnames and the bodies (the same on every side).
 */
export function variedRequests(origin: string, flock: string, ids: readonly string[], seed: number, connections?: number): Record<HttpOp, VariedRequest> {
  const base = `/api/v1/${flock}/person/`;
  const json = { ...BENCH_AUTH, "content-type": "application/json" };
  const c = connections === undefined ? {} : { connections };
  const get: VariedRequest = { base: origin, headers: BENCH_AUTH, paths: ids.map((id) => `${base}${id}/`), ...c };
  const list: VariedRequest = { base: origin, headers: BENCH_AUTH, paths: surnames(seed).map((s) => `${base}?last_name=${encodeURIComponent(s)}`), ...c };
  const put: VariedRequest = { base: origin, method: "PUT", headers: json, paths: ids.map((id) => `${base}${id}/`), bodies: putBodies(seed), ...c };
  return {
    "get by id": get,
    "list with a filter": list,
    "create person": { base: origin, method: "POST", headers: json, paths: [base], bodies: createBodies(seed), ...c },
    "update person (PUT)": put,
    "mixed 8:1:1 (get, list, PUT)": mixOf(get, list, put),
  };
}

/** New persons' bodies, as a form would post them. */
function createBodies(seed: number): string[] {
  return personBatch(seed + 1, 0, RANDOM_BODIES).map((p) => JSON.stringify(p));
}

/** PUT bodies: a person moves (locality, postal code) and changes job. */
function putBodies(seed: number): string[] {
  return personBatch(seed + 2, 0, RANDOM_BODIES).map((p) => JSON.stringify({ locality: p.locality, postal_code: p.postal_code, job_title: p.job_title }));
}

/** The distinct surnames of the data set's first 10,000 persons (all exist in every data set, 10k and up). */
function surnames(seed: number): string[] {
  const names = new Set<string>();
  for (let b = 0; b < 10; b++) for (const p of personBatch(seed, b, 1000)) names.add(p.last_name);
  return [...names].sort();
}

/** Up to RANDOM_IDS live persons' ids of `flock` in the SQLite file, in random order. */
export function sqliteIds(file: string, flock: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[string, number], { id: string }>(
        `SELECT id FROM records WHERE cid = (SELECT cid FROM collections WHERE flock = ? AND type = 'person') AND state = 'updated'
         ORDER BY random() LIMIT ?`,
      )
      .all(flock, RANDOM_IDS)
      .map((r) => r.id);
  } finally {
    db.close();
  }
}

/** The same from a PostgreSQL database. */
export async function postgresIds(url: string, flock: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM records WHERE cid = (SELECT cid FROM collections WHERE flock = $1 AND type = 'person') AND state = 'updated'
       ORDER BY random() LIMIT $2`,
      [flock, RANDOM_IDS],
    );
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** One request of each operation must succeed before it is loaded. */
export async function checkRequests(reqs: Record<HttpOp, VariedRequest>): Promise<void> {
  for (const each of Object.values(reqs)) {
    for (const req of each.mix ? each.mix.map((m) => ({ ...m, base: each.base })) : [each]) {
      const res = await fetch(req.base + req.paths[0]!, { method: req.method ?? "GET", headers: req.headers ?? {}, ...(req.bodies ? { body: req.bodies[0]! } : {}) });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${req.method ?? "GET"} ${req.base}${req.paths[0]}: ${res.status} ${text.slice(0, 200)}`);
    }
  }
}

/** No runs yet. */
export function emptyRuns(): Record<HttpOp, LoadResult[]> {
  return { "get by id": [], "list with a filter": [], "create person": [], "update person (PUT)": [], "mixed 8:1:1 (get, list, PUT)": [] };
}

/**
 * Loads every target with every operation: a warm-up each, then `rounds` timed runs, the
 * targets taking turns (and the order alternating), so a change in the machine's load hits
 * all alike. `scratch` is a file the request lists are handed over in.
 */
export async function loadInTurns(
  root: string,
  scratch: string,
  targets: readonly HttpTarget[],
  opts: { seconds: number; rounds: number; warmup: number; ops?: readonly HttpOp[] },
): Promise<void> {
  for (const op of opts.ops ?? HTTP_OPS) {
    const loaded = targets.filter((t) => !t.only || t.only.includes(op));
    for (const t of loaded) await loadVaried(root, scratch, t.reqs[op], opts.warmup, 0);
    for (let r = 0; r < opts.rounds; r++) {
      for (const t of r % 2 ? [...loaded].reverse() : loaded) t.runs[op].push(await loadVaried(root, scratch, t.reqs[op], opts.seconds, 0));
    }
  }
}

/** The run with the median rate. */
export function medianRun(runs: readonly LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1]!;
}

/** Requests per second, or null when more than 1% of the answers were not 2xx (the figure would not be the operation's). */
export function rateOf(r: LoadResult): number | null {
  return r.non2xx + r.errors > 0.01 * Math.max(1, r.total) ? null : round3(r.rps);
}

/** Where each operation's requests came from, for the notes. */
export function requestSource(op: HttpOp, req: VariedRequest): string {
  if (op === "get by id" || op === "update person (PUT)") return `random of ${req.paths.length} ids${req.bodies ? `, ${req.bodies.length} bodies` : ""}`;
  if (op === "list with a filter") return `random of ${req.paths.length} surnames`;
  if (req.mix) return `each connection 8 gets, a list and a PUT in turn, each random as in its own operation`;
  return `random of ${req.bodies?.length ?? 0} bodies`;
}

/**
 * The result rows of `ours` against `base` for every operation: the median runs' rates, and
 * for the writes, their p99 latencies (the targets of issue 11: rate >= 0.5x, p99 <= 2x).
 */
export function compareTargets(
  label: string,
  ours: HttpTarget,
  base: HttpTarget,
  baseName: string,
  extraNote: string,
  ops: readonly HttpOp[] = HTTP_OPS,
): ScenarioResult[] {
  const out: ScenarioResult[] = [];
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : round3(a / b));
  for (const op of ops) {
    const [a, b] = [medianRun(ours.runs[op]), medianRun(base.runs[op])];
    const [ra, rb] = [rateOf(a), rateOf(b)];
    const write = op === "create person" || op === "update person (PUT)";
    const note = [
      `p50 ${a.p50} / ${b.p50} ms`,
      a.non2xx || a.errors ? `${a.non2xx} non-2xx, ${a.errors} errors` : "",
      b.non2xx || b.errors ? `${baseName} ${b.non2xx} non-2xx, ${b.errors} errors` : "",
      requestSource(op, ours.reqs[op]),
      extraNote,
    ]
      .filter(Boolean)
      .join("; ");
    const target = write ? { target: ">= 0.5" } : op === MIXED ? { target: ">= 0.8" } : {};
    out.push({ scenario: `${label}: ${op} vs ${baseName}`, ours: ra, baseline: rb, baselineName: baseName, unit: "req/s", ratio: ratio(ra, rb), ...target, note });
    if (write && a.p99 !== undefined && b.p99 !== undefined) {
      out.push({
        scenario: `${label}: ${op} p99 latency vs ${baseName}`,
        ours: a.p99,
        baseline: b.p99,
        baselineName: baseName,
        unit: "ms",
        ratio: ratio(a.p99, b.p99),
        target: "<= 2",
        note: `${ours.reqs[op].connections ?? "default"} connections; the median-rate run's p99`,
      });
    }
  }
  return out;
}
