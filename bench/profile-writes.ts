/**
 * @module bench/profile-writes
 * Creates then updates N persons one by one through the engine on a copy of the seeded
 * 100k file (seed it first: `npm run bench -- --sizes 100k --seed-only`), printing each
 * rate; for profiling the write path:
 *
 *   N=1500 TRIG=1 node --cpu-prof --conditions=source --import tsx bench/profile-writes.ts
 *
 * `TRIG=1` gives the flock an active contact_created webhook (a data event and an outbox
 * job with every create).
 */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRecordEngine, validateTriggers } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { personBatch } from "./lib/persons.js";

const data = fileURLToPath(new URL("./.data/", import.meta.url));
const dir = join(data, "scratch-profile");
const file = join(dir, "profile.db");
mkdirSync(dir, { recursive: true });
for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
copyFileSync(join(data, "persons-100k-s42.db"), file);
const storage = createSqliteStorage({ path: file });
const { triggers } = validateTriggers([{ flock: "bench", trigger: "contact_created", action: "send-json-webhook", url: "https://hooks.example.org/h" }], {});
const engine = createRecordEngine({ storage, triggers: () => (process.env.TRIG ? triggers : []) });
const persons = personBatch(9, 0, 1000);
const n = Number(process.env.N ?? 5000);
let t = performance.now();
const ids: string[] = [];
for (let i = 0; i < n; i++) ids.push((await engine.create("bench", "person", { ...persons[i % 1000]! })).id);
console.log(`create: ${(n / ((performance.now() - t) / 1000)).toFixed(0)} rec/s`);
t = performance.now();
for (let i = 0; i < n; i++) await engine.update("bench", "person", ids[i]!, { locality: `L${i}`, job_title: `J${i}` });
console.log(`update: ${(n / ((performance.now() - t) / 1000)).toFixed(0)} rec/s`);
await storage.close();
rmSync(dir, { recursive: true, force: true });
