/**
 * @module bench/round-trips
 * PostgreSQL round trips per HTTP request of ours: the server runs in this process (no
 * background workers, so nothing else queries) on a copy of the seeded PostgreSQL data set,
 * and every query a pg client sends is counted (`pg.Client.prototype.query`: the pool's
 * queries and transactions' alike). Each operation runs a few times after a warm-up and
 * reports the last request's statements, so caches are as warm as under load. Then gets by
 * id from 4 connections at once (as the bench's load sends them), where requests share a
 * sync: the statements per request there.
 *
 *   npm run bench -- --seed-only --sizes 10k --db postgres   # once
 *   node --conditions=source --import tsx bench/round-trips.ts   # DATABASE=records_bench_10k_s42
 */
import { startServer } from "@records-service/server";
import pg from "pg";
import { BENCH_FLOCK, BENCH_TOKEN } from "./lib/seed.js";
import { personBatch } from "./lib/persons.js";
import { benchServerUrl, copyDatabase, dropDatabase } from "./lib/seed-postgres.js";

const server = benchServerUrl();
const copy = "records_bench_round_trips";
const url = await copyDatabase(server, process.env.DATABASE ?? "records_bench_10k_s42", copy);

let log: string[] | undefined;
const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const q = args[0] as string | { text?: string; name?: string };
  log?.push(typeof q === "string" ? q : (q.name ?? q.text ?? "?"));
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const running = await startServer({ db: url, host: "127.0.0.1", port: 0, workers: [], seed: false });
const auth = { authorization: `Bearer ${BENCH_TOKEN}`, application: "Bench/records-bench/1.0", "content-type": "application/json" };
const base = `${running.url}/api/v1/${BENCH_FLOCK}/person/`;
const bodies = personBatch(99, 0, 20).map((p) => JSON.stringify(p));
const ids: string[] = [];
let n = 0;

const ops: Record<string, () => Promise<Response>> = {
  create: () => fetch(base, { method: "POST", headers: auth, body: bodies[n++]! }),
  get: () => fetch(`${base}${ids[0]}/`, { headers: auth }),
  "get after a write": () => fetch(`${base}${ids[0]}/`, { headers: auth }),
  list: () => fetch(`${base}?last_name=Smith`, { headers: auth }),
  PUT: () => fetch(`${base}${ids[0]}/`, { method: "PUT", headers: auth, body: JSON.stringify({ job_title: `job ${n++}` }) }),
};
try {
  for (let i = 0; i < 2; i++) {
    const res = await ops.create!();
    ids.push(((await res.json()) as { uri: string }).uri.split("/").filter(Boolean).pop()!);
  }
  for (const [name, op] of Object.entries(ops)) {
    let last: string[] = [];
    for (let i = 0; i < 4; i++) {
      if (name === "get after a write") await (await ops.PUT!()).arrayBuffer(); // not counted
      log = [];
      const res = await op();
      if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      last = log;
      log = undefined;
    }
    console.log(`${name}: ${last.length} round trips: ${last.map((s) => s.replace(/\s+/g, " ").slice(0, 60)).join(" | ")}`);
  }
  // 4 connections, each sending its next get as soon as the last is answered.
  const total = 2000;
  let sent = 0;
  log = [];
  const connection = async () => {
    while (sent < total) {
      sent++;
      const res = await ops.get!();
      if (!res.ok) throw new Error(`get: ${res.status}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all([connection(), connection(), connection(), connection()]);
  console.log(`get, 4 connections at once: ${(log.length / total).toFixed(2)} round trips per request (${log.length} for ${total})`);
  log = undefined;
} finally {
  await running.close();
  await dropDatabase(server, copy);
}
