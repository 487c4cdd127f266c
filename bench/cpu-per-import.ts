/**
 * @module bench/cpu-per-import
 * CPU time (user + system, every thread of the process) per person imported from NDJSON
 * into an empty file, as `records-service import --no-events` does: the seeded file's
 * persons exported once, then imported `ROUNDS` times into fresh files, each re-export
 * compared byte for byte. CPU time holds up on a loaded machine where rates do not; the
 * main thread's share is given apart (Linux), the rest being the WAL checkpointer's thread.
 *
 *   node --conditions=source --import tsx bench/cpu-per-import.ts   # SOURCE=persons-10k-s42.db ROUNDS=3
 */
import { createReadStream, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRecordEngine, systemClock } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { exportRecords } from "../packages/server/src/bulk-io/export-records.js";
import { importRecords } from "../packages/server/src/bulk-io/import-records.js";
import { readNdjson } from "../packages/server/src/bulk-io/read-rows.js";

const data = fileURLToPath(new URL("./.data/", import.meta.url));
const dir = join(data, "scratch-import");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const ndjson = join(dir, "persons.ndjson");
const source = createSqliteStorage({ path: join(data, process.env.SOURCE ?? "persons-10k-s42.db"), readonly: true });
const exported = await _collect(exportRecords(source, "bench", { type: "person" }));
await source.close();
writeFileSync(ndjson, exported);
for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
  const file = join(dir, `import-${round}.db`);
  const storage = createSqliteStorage({ path: file });
  await storage.createFlock({ identifier: "bench", name: "Import", created: "2026-01-01T00:00:00.000000" });
  const engine = createRecordEngine({ storage, clock: systemClock });
  const cpu = process.cpuUsage();
  const main = _mainThreadMicros();
  const t = performance.now();
  const report = await importRecords(engine, "bench", readNdjson(createReadStream(ndjson)), { type: "person" });
  const used = process.cpuUsage(cpu);
  const mainUs = main === undefined ? undefined : _mainThreadMicros()! - main;
  const wall = performance.now() - t;
  const same = (await _collect(exportRecords(storage, "bench", { type: "person" }))) === exported;
  const n = report.created;
  console.log(
    `${n} persons: ${((used.user + used.system) / n).toFixed(1)} µs CPU each (user ${(used.user / n).toFixed(1)}, system ${(used.system / n).toFixed(1)}` +
      `${mainUs === undefined ? "" : `; main thread ${(mainUs / n).toFixed(0)}`}), ` +
      `${((n / wall) * 1000).toFixed(0)} persons/s wall; refused ${report.refused}; re-export ${same ? "byte-identical" : "DIFFERS"}`,
  );
  await storage.close();
}
rmSync(dir, { recursive: true, force: true });

async function _collect(lines: AsyncIterable<string>): Promise<string> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return `${out.join("\n")}\n`;
}

/** The main thread's user + system CPU in µs, to 10 ms (Linux: /proc, USER_HZ 100), else undefined. */
function _mainThreadMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10_000; // utime, stime (fields 14 and 15), in ticks of 10 ms
  } catch {
    return undefined;
  }
}
