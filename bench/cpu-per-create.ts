/**
 * @module bench/cpu-per-create
 * CPU time (user + system, every thread of the process: the checkpointer's included) per
 * person create through the engine, one by one, on a copy of the seeded file, with the
 * search worker's merges running every `SEARCH_MERGE_INTERVAL_MS`. CPU time holds up on a
 * loaded machine where requests per second do not (docs/performance.md).
 *
 *   node --conditions=source --import tsx bench/cpu-per-create.ts   # SOURCE=persons-10k-s42.db N=2000
 */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRecordEngine, SEARCH_MERGE_BATCH, SEARCH_MERGE_INTERVAL_MS } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { personBatch } from "./lib/persons.js";

const data = fileURLToPath(new URL("./.data/", import.meta.url));
const dir = join(data, "scratch-cpu");
const file = join(dir, "cpu.db");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
copyFileSync(join(data, process.env.SOURCE ?? "persons-100k-s42.db"), file);
const n = Number(process.env.N ?? 2000);
const storage = createSqliteStorage({ path: file });
const engine = createRecordEngine({ storage });
const persons = personBatch(11, 0, n + 100);
for (let i = 0; i < 100; i++) await engine.create("bench", "person", { ...persons[i]! }); // warm-up
let merging: Promise<unknown> | undefined;
const merger = setInterval(() => {
  merging ??= storage.mergeSearchIndex(SEARCH_MERGE_BATCH).finally(() => (merging = undefined));
}, SEARCH_MERGE_INTERVAL_MS);
const cpu = process.cpuUsage();
const t = performance.now();
for (let i = 0; i < n; i++) await engine.create("bench", "person", { ...persons[100 + i]! });
while ((await storage.mergeSearchIndex(SEARCH_MERGE_BATCH)) === SEARCH_MERGE_BATCH); // what is still queued
const used = process.cpuUsage(cpu);
const wall = performance.now() - t;
clearInterval(merger);
await merging;
console.log(`${n} creates: ${((used.user + used.system) / n).toFixed(0)} µs CPU each (user ${(used.user / n).toFixed(0)}, system ${(used.system / n).toFixed(0)}), ${(wall / n).toFixed(2)} ms wall each`);
await storage.close();
rmSync(dir, { recursive: true, force: true });
