/**
 * @module bench/wal-pages
 * Which pages one write dirties, by table and index: on a copy of the seeded 100k file
 * (`npm run bench -- --sizes 100k --seed-only` first), each of 20 rounds empties the WAL
 * (TRUNCATE checkpoint), makes one write through the engine, and reads the page numbers
 * of the WAL's frames, named by `dbstat` as the file was before the writes. A commit
 * writes each dirtied page whole to the WAL (and the checkpoint copies it back), so this
 * is what a write costs in I/O (docs/performance.md, "Where a write's pages go").
 *
 *   node --conditions=source --import tsx bench/wal-pages.ts            # person creates
 *   OP=update node --conditions=source --import tsx bench/wal-pages.ts  # PUT-like updates
 *   WARMUP=1000 node ... bench/wal-pages.ts                             # after 1,000 creates (see below)
 *   FLOOR=1 node ... bench/wal-pages.ts                                 # no value entries (see below)
 *   DROP=person.email,data_event.fire_at node ... bench/wal-pages.ts     # without those fields' entries
 *
 * A write queues its searched records for the search index (`search_pending`); their merge
 * (`mergeSearchIndex`, the search worker's) is measured after the rounds: for batches of 1,
 * 10, 100 and 250 queued persons, the pages a merge dirties, per person (FTS5's own
 * segment merges, every few merges, included).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { createRecordEngine } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { personBatch } from "./lib/persons.js";

const data = fileURLToPath(new URL("./.data/", import.meta.url));
const dir = join(data, "scratch-wal-pages");
const file = join(dir, "pages.db");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
copyFileSync(join(data, process.env.SOURCE ?? "persons-100k-s42.db"), file);
const storage = createSqliteStorage({ path: file });
const engine = createRecordEngine({ storage });
const persons = personBatch(9, 0, 4000);
const reader = new Database(file);

const update = process.env.OP === "update";
/** Empties the WAL, again until no other connection (the storage's checkpointer) kept it busy. */
const truncateWal = async () => {
  for (let i = 0; i < 200; i++) {
    const [r] = reader.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number }[];
    if (r && r.busy === 0 && r.log <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the WAL could not be emptied: ${JSON.stringify(reader.pragma("wal_checkpoint(TRUNCATE)"))}`);
};
// FLOOR=1: the floor of a create, with no value entry for any field of the person or its
// data event (their kept fields' indexes dropped through the registry, engine fields too,
// which the operator surfaces refuse), so what remains is the records, the change log and
// the rest of the write's bookkeeping.
if (process.env.FLOOR) {
  const kept: [string, string[]][] = [
    ["person", ["first_name", "last_name", "email", "tags"]],
    ["data_event", ["fire_at", "context_ref", "expires_at"]],
  ];
  for (const [type, fields] of kept) for (const f of fields) await storage.setFieldIndex("bench", type, f, "drop", "operator");
  while ((await storage.stepFieldIndexes(2000)) > 0);
}
// DROP=type.field,...: what those fields' value entries cost, their indexes dropped the same way.
if (process.env.DROP) {
  for (const name of process.env.DROP.split(",")) {
    const [type, field] = name.split(".");
    if (!type || !field) throw new Error(`DROP: expected type.field, not ${name}`);
    await storage.setFieldIndex("bench", type, field, "drop", "operator");
  }
  while ((await storage.stepFieldIndexes(2000)) > 0);
}
const ids: string[] = [];
// WARMUP creates before the rounds (default 5). A seeded file is VACUUMed, so its index pages
// are full and the first inserts into each split it; a file in use has room in its pages.
// WARMUP=1000 measures that steady state (docs/performance.md reports both).
const warmup = Number(process.env.WARMUP ?? 5);
for (let i = 0; i < warmup; i++) ids.push((await engine.create("bench", "person", { ...persons[i]! })).id);
// Pages are named as the file stands after the warm-up, so its own splits are named too.
const owner = new Map<number, string>();
for (const r of reader.prepare<[], { name: string; pageno: number }>("SELECT name, pageno FROM dbstat").all()) owner.set(r.pageno, r.name);
const rounds = Number(process.env.ROUNDS ?? 20);
const pages = new Map<string, number>();
const perRound: { all: number; search: number }[] = [];
for (let i = 0; i < rounds; i++) {
  await truncateWal();
  if (update) await engine.update("bench", "person", ids[i % ids.length]!, { locality: `L${i}`, job_title: `J${i}` });
  else await engine.create("bench", "person", { ...persons[warmup + 10 + i]! });
  const wal = readFileSync(`${file}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const seen = new Set<number>();
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) seen.add(wal.readUInt32BE(at));
  let search = 0;
  for (const p of seen) {
    const name = owner.get(p) ?? "(pages new since the warm-up: splits, growth)";
    pages.set(name, (pages.get(name) ?? 0) + 1);
    if (name.startsWith("record_search") || name.startsWith("search_")) search += 1;
  }
  perRound.push({ all: seen.size, search });
}
let total = 0;
for (const [name, n] of [...pages].sort((a, b) => b[1] - a[1])) {
  console.log(`${(n / rounds).toFixed(1).padStart(6)}  ${name}`);
  total += n;
}
console.log(`${(total / rounds).toFixed(1).padStart(6)}  pages a ${update ? "person update" : "person create (with its data event)"} (mean)`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${String(median(perRound.map((r) => r.all))).padStart(6)}  median per round; the search index's pages: median ${median(perRound.map((r) => r.search))}, max ${Math.max(...perRound.map((r) => r.search))}`);
console.log(`rounds (all/search): ${perRound.map((r) => `${r.all}/${r.search}`).join(" ")}`);

// The merges the search worker makes of what the writes queued.
while ((await storage.mergeSearchIndex(1000)) === 1000);
const walPages = () => {
  const wal = readFileSync(`${file}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const seen = new Set<number>();
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) seen.add(wal.readUInt32BE(at));
  return seen.size;
};
let at = 10 + rounds;
const merged: string[] = [];
for (const batch of [1, 10, 100, 250]) {
  let pagesIn = 0;
  const merges = batch === 250 ? 6 : 12;
  for (let r = 0; r < merges; r++) {
    for (let i = 0; i < batch; i++) await engine.create("bench", "person", { ...persons[at++ % persons.length]! });
    await truncateWal();
    await storage.mergeSearchIndex(1000);
    pagesIn += walPages();
  }
  merged.push(`${batch}: ${(pagesIn / merges / batch).toFixed(2)}`);
}
if (!update) console.log(`merging the queue (persons per merge: pages per person, over 12 merges, 6 of 250): ${merged.join(", ")}`);
reader.close();
await storage.close();
rmSync(dir, { recursive: true, force: true });
