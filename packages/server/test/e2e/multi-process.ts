/**
 * @module test/e2e/multi-process
 * Several real `records-service serve` processes on one database (a SQLite file or a
 * PostgreSQL URL), each on a port of its own so that a test can send each request to the
 * process it chooses, and the checks issue 10 asks of them: read-after-write through
 * another process, lockout, throttle and concurrent writers. Shared by the SQLite and the
 * PostgreSQL suites.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCli, type CliProcess } from "./spawn-cli.js";

export const FLOCK = "club";
export const USER = { username: "ada", password: "correct horse battery" };
/** Attributed requests are never throttled. */
export const APP = { application: "e2e/multi-process/1" };

/** A config file with flock `club`, user `ada` and the given throttle. */
export function writeConfig(unattributedPerMinute: number): string {
  const path = join(mkdtempSync(join(tmpdir(), "records-multi-")), "config.json");
  writeFileSync(
    path,
    JSON.stringify({
      flocks: [{ identifier: FLOCK, name: "The Club" }],
      users: [{ username: USER.username, password: USER.password, flocks: [FLOCK] }],
      throttle: { unattributedPerMinute },
    }),
  );
  return path;
}

/** `n` serve processes on `db`, started together; resolves with their base URLs once all listen. */
export async function startServes(n: number, db: string, config: string): Promise<{ bases: string[]; procs: CliProcess[] }> {
  const procs = Array.from({ length: n }, () => startCli(["serve", "--port", "0", "--db", db, "--config", config, "--quiet"]));
  const lines = await Promise.all(procs.map((p) => p.line(/listening on http:\/\//, 60_000)));
  return { bases: lines.map((l) => /listening on (http:\/\/\S+)/.exec(l)![1]!), procs };
}

/** Logs `ada` in through `base`; the API key. */
export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/`, { method: "POST", headers: { "content-type": "application/json", ...APP }, body: JSON.stringify(USER) });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}

/** JSON request with the key and the APPLICATION header. */
async function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...APP },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** What a read-after-write run saw. */
export interface ReadAfterWrite {
  rounds: number;
  /** Reads (single record or filtered list) through another process that missed the acknowledged write. */
  stale: number;
  /** Requests answered with anything but the expected status. */
  failed: number;
}

/**
 * Creates `records` persons through the processes in turn, then for each round: reads a
 * random record through process B (warming every cache), updates it through process A
 * (A ≠ B, both random) and at once reads it back through B, by id and by a filtered list.
 */
export async function readAfterWrite(bases: string[], key: string, records: number, rounds: number): Promise<ReadAfterWrite> {
  const ids: string[] = [];
  let failed = 0;
  for (let i = 0; i < records; i++) {
    const r = await call(bases[i % bases.length]!, key, "POST", `/api/v1/${FLOCK}/person/`, { first_name: `P${i}`, last_name: "Start" });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.json)}`);
    ids.push(/[0-9a-f]{24}/.exec(r.json.uri as string)![0]);
  }
  let stale = 0;
  const pick = (n: number) => Math.floor(Math.random() * n);
  for (let round = 0; round < rounds; round++) {
    const id = ids[pick(ids.length)]!;
    const a = pick(bases.length);
    const b = (a + 1 + pick(bases.length - 1)) % bases.length;
    const path = `/api/v1/${FLOCK}/person/${id}/`;
    const surname = `S${round}x${pick(1e6)}`;
    const before = await call(bases[b]!, key, "GET", path);
    await call(bases[b]!, key, "GET", `/api/v1/${FLOCK}/person/?last_name=${surname}`);
    if (before.status !== 200) failed += 1;
    const put = await call(bases[a]!, key, "PUT", path, { last_name: surname });
    if (put.status !== 200) failed += 1;
    const after = await call(bases[b]!, key, "GET", path);
    if (after.status !== 200) failed += 1;
    else if (after.json.data.last_name !== surname) stale += 1;
    const list = await call(bases[b]!, key, "GET", `/api/v1/${FLOCK}/person/?last_name=${surname}`);
    if (list.status !== 200) failed += 1;
    else if (!JSON.stringify(list.json.results).includes(id)) stale += 1;
  }
  return { rounds, stale, failed };
}

/** Sends a login with a wrong password through each process in turn, `n` times; the statuses. */
export async function failLogins(bases: string[], n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${bases[i % bases.length]}/api/v1/auth/`, {
      method: "POST",
      headers: { "content-type": "application/json", ...APP },
      body: JSON.stringify({ username: USER.username, password: "wrong password" }),
    });
    statuses.push(res.status);
  }
  return statuses;
}

/** `n` unattributed reads (no APPLICATION header) through the processes in turn; the statuses. */
export async function unattributedReads(bases: string[], key: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${bases[i % bases.length]}/api/v1/${FLOCK}/person/?page_size=1`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

/** `perProcess` creates through every process at once, `concurrency` in flight per process; every status. */
export async function concurrentCreates(bases: string[], key: string, perProcess: number, concurrency: number): Promise<number[]> {
  const statuses: number[] = [];
  await Promise.all(
    bases.flatMap((base, p) =>
      Array.from({ length: concurrency }, async (_, lane) => {
        for (let i = lane; i < perProcess; i += concurrency) {
          const r = await call(base, key, "POST", `/api/v1/${FLOCK}/person/`, { first_name: `W${p}-${i}`, last_name: "Writer" });
          statuses.push(r.status);
        }
      }),
    ),
  );
  return statuses;
}
