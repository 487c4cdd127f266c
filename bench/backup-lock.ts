/**
 * @module bench/backup-lock
 * How much an online backup of a SQLite file holds up its writers: SQLite's backup API
 * (better-sqlite3 `db.backup()`, run inside one read transaction so the copy is one
 * snapshot) against `VACUUM INTO`. A writer thread with its own connection commits small
 * transactions without pause (as a serving process would); for each method the main
 * thread copies the file and the writer reports how many commits it made meanwhile and
 * its slowest commit. Both read under WAL, so neither should take the write lock; this
 * checks it and measures what each costs in time.
 *
 *   node --conditions=source --import tsx bench/backup-lock.ts          # 200 MB file
 *   MB=50 node --conditions=source --import tsx bench/backup-lock.ts
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";

const dir = fileURLToPath(new URL("./.data/scratch-backup-lock/", import.meta.url));
const file = join(dir, "source.db");
const mb = Number(process.env.MB ?? 200);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const seed = new Database(file);
seed.pragma("journal_mode = WAL");
seed.pragma("synchronous = NORMAL");
seed.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v TEXT); CREATE INDEX t_k ON t (k)");
const insert = seed.prepare("INSERT INTO t (k, v) VALUES (?, ?)");
const rows = Math.round((mb * 1024 * 1024) / 600);
seed.transaction(() => {
  for (let i = 0; i < rows; i++) insert.run(`k${(i * 7919) % rows}`, "x".repeat(500));
})();
seed.pragma("wal_checkpoint(TRUNCATE)");
seed.close();
console.log(`source: ${(statSync(file).size / 1048576).toFixed(0)} MB, ${rows} rows`);

const writer = new Worker(
  `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = NORMAL");
const ins = db.prepare("INSERT INTO t (k, v) VALUES (?, ?)");
const write = db.transaction((i) => ins.run("w" + i, "y".repeat(200)));
let commits = 0, slowest = 0, busy = 0, i = 0, stop = false;
parentPort.on("message", (m) => {
  if (m === "reset") { commits = 0; slowest = 0; busy = 0; return; }
  if (m === "report") return parentPort.postMessage({ commits, slowest, busy });
  if (m === "stop") { stop = true; }
});
(function loop() {
  const until = Date.now() + 20;
  while (Date.now() < until) {
    const t0 = performance.now();
    try { write.immediate(i++); commits++; } catch { busy++; }
    slowest = Math.max(slowest, performance.now() - t0);
  }
  if (stop) { db.close(); parentPort.close(); return; }
  setImmediate(loop);
})();
`,
  { eval: true, workerData: { driver: _driverPath(), file } },
);

const ask = (m: string) =>
  new Promise<{ commits: number; slowest: number; busy: number }>((resolve) => {
    writer.once("message", resolve);
    writer.postMessage(m);
  });

async function measure(name: string, run: () => Promise<void> | void): Promise<void> {
  writer.postMessage("reset");
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const r = await ask("report");
  console.log(
    `${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms   writer: ${r.commits} commits (${((r.commits / ms) * 1000).toFixed(0)}/s), slowest ${r.slowest.toFixed(1)} ms, busy errors ${r.busy}`,
  );
}

// The writer is running once it has committed something.
while ((await ask("report")).commits === 0) await new Promise((r) => setTimeout(r, 100));
for (let round = 1; round <= 2; round++) {
  await measure(`idle 1 s (round ${round})`, () => new Promise((r) => setTimeout(r, 1000)));
  await measure(`backup API, one step (round ${round})`, async () => {
    const src = new Database(file, { readonly: true });
    src.exec("BEGIN");
    src.prepare("SELECT count(*) FROM t").get();
    await src.backup(join(dir, `b1-${round}.db`), { progress: () => 0x7fffffff });
    src.exec("COMMIT");
    src.close();
  });
  await measure(`backup API, 1000-page steps (round ${round})`, async () => {
    const src = new Database(file, { readonly: true });
    src.exec("BEGIN");
    src.prepare("SELECT count(*) FROM t").get();
    await src.backup(join(dir, `b2-${round}.db`), { progress: () => 1000 });
    src.exec("COMMIT");
    src.close();
  });
  await measure(`VACUUM INTO (round ${round})`, () => {
    const src = new Database(file, { readonly: true });
    src.prepare("VACUUM INTO ?").run(join(dir, `v-${round}.db`));
    src.close();
  });
}
writer.postMessage("stop");
rmSync(dir, { recursive: true, force: true });

function _driverPath(): string {
  return fileURLToPath(import.meta.resolve("better-sqlite3"));
}
