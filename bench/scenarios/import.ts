/**
 * @module bench/scenarios/import
 * Bulk import in-process (`importRecords`, as `records-service import --no-events` runs it)
 * on a file: the data set's persons exported to NDJSON (`exportRecords`), then read back
 * from that file into an empty database, timed from the first byte read to the last batch
 * committed. Checked afterwards: the new database exports to the same bytes.
 */
import { createReadStream, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRecordEngine, systemClock } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { exportRecords } from "../../packages/server/src/bulk-io/export-records.js";
import { importRecords } from "../../packages/server/src/bulk-io/import-records.js";
import { FLAG_DEFAULTS } from "../../packages/server/src/config/schema.js";
import { readNdjson } from "../../packages/server/src/bulk-io/read-rows.js";
import { round3 } from "../lib/measure.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** The import scenario. */
export const scenarios: Scenario[] = [{ name: "persons imported per second", group: "import", run: (ctx) => _run(ctx) }];

// --- internal ---

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset } = ctx;
  const source = createSqliteStorage({ path: dataset.file, readonly: true });
  const ndjson = join(ctx.scratchDir, "persons.ndjson");
  const target = join(ctx.scratchDir, "import.db");
  try {
    const exported = await _collect(exportRecords(source, dataset.flock, { type: "person" }));
    writeFileSync(ndjson, exported);
    const storage = createSqliteStorage({ path: target });
    try {
      await storage.createFlock({ identifier: dataset.flock, name: "Import", created: "2026-01-01T00:00:00.000000" });
      const engine = createRecordEngine({ storage, clock: systemClock });
      const started = performance.now();
      const report = await importRecords(engine, dataset.flock, readNdjson(createReadStream(ndjson)), { type: "person" });
      const seconds = (performance.now() - started) / 1000;
      if (report.refused > 0) throw new Error(`${report.refused} rows refused, e.g. line ${report.refusals[0]?.line}: ${report.refusals[0]?.reason}`);
      const same = (await _collect(exportRecords(storage, dataset.flock, { type: "person" }))) === exported;
      return [
        {
          scenario: `import: persons/s from NDJSON into an empty file (--no-events, batches of ${FLAG_DEFAULTS.importBatch})`,
          ours: round3(report.created / seconds),
          baseline: null,
          unit: "rec/s",
          ratio: null,
          target: ">= 20000 rec/s",
          rows: report.created,
          note: `${report.created} persons in ${seconds.toFixed(1)} s; re-export ${same ? "byte-identical" : "DIFFERS"}`,
          data: `the persons of ${dataset.file}, exported to an NDJSON file in the scratch folder`,
        },
      ];
    } finally {
      await storage.close();
    }
  } finally {
    await source.close();
    for (const f of [ndjson, target, `${target}-wal`, `${target}-shm`]) rmSync(f, { force: true });
  }
}

async function _collect(lines: AsyncIterable<string>): Promise<string> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return `${out.join("\n")}\n`;
}
