/**
 * @module bench/scenarios/disk
 * Bytes on disk per person against the hand-written server's table (issue 24: ≤ 2.5x). The
 * data set's live persons are imported (`importRecords`, as `records-service import
 * --no-events` runs it) into an empty file, their search index merged as the search worker
 * would, and the file VACUUMed; the hand-written server's table (`prepareHandSqlite`: id,
 * flock, last name, the JSON and the record's metadata, one index on the last name) is built
 * from that file's persons and VACUUMed too. Both sizes are of the whole file, so the
 * schema's fixed pages count on both sides (a few KB, nothing at these sizes).
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createRecordEngine, systemClock } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { exportRecords } from "../../packages/server/src/bulk-io/export-records.js";
import { importRecords } from "../../packages/server/src/bulk-io/import-records.js";
import { readNdjson } from "../../packages/server/src/bulk-io/read-rows.js";
import { prepareHandSqlite } from "../peers/hand-server.js";
import { round3 } from "../lib/measure.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** The disk scenario. */
export const scenarios: Scenario[] = [{ name: "bytes on disk per person", group: "disk", run: (ctx) => _run(ctx) }];

// --- internal ---

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset } = ctx;
  const ours = join(ctx.scratchDir, "disk-ours.db");
  const hand = join(ctx.scratchDir, "disk-hand.db");
  const files = [ours, hand].flatMap((f) => [f, `${f}-wal`, `${f}-shm`]);
  for (const f of files) rmSync(f, { force: true });
  try {
    const source = createSqliteStorage({ path: dataset.file, readonly: true });
    const storage = createSqliteStorage({ path: ours });
    let persons = 0;
    try {
      await storage.createFlock({ identifier: dataset.flock, name: "Disk", created: "2026-01-01T00:00:00.000000" });
      const engine = createRecordEngine({ storage, clock: systemClock });
      const rows = readNdjson(_lines(exportRecords(source, dataset.flock, { type: "person" })));
      const report = await importRecords(engine, dataset.flock, rows, { type: "person" });
      if (report.refused > 0) throw new Error(`${report.refused} rows refused, e.g. line ${report.refusals[0]?.line}: ${report.refusals[0]?.reason}`);
      persons = report.created;
      while ((await storage.mergeSearchIndex(10_000)) > 0);
    } finally {
      await storage.close();
      await source.close();
    }
    _vacuum(ours);
    prepareHandSqlite(ours, hand);
    _vacuum(hand);
    const oursBytes = statSync(ours).size;
    const handBytes = statSync(hand).size;
    return [
      {
        scenario: "bytes on disk per person (persons only: imported with --no-events, search index merged, VACUUMed)",
        ours: round3(oursBytes / persons),
        baseline: round3(handBytes / persons),
        unit: "B/person",
        ratio: round3(oursBytes / handBytes),
        target: "<= 2.5",
        rows: persons,
        note: `${(oursBytes / 1e6).toFixed(1)} MB against ${(handBytes / 1e6).toFixed(1)} MB for ${persons} persons`,
        data: `the live persons of ${dataset.file}, imported into an empty file; the hand table built from that file`,
      },
    ];
  } finally {
    if (!process.env.KEEP) for (const f of files) rmSync(f, { force: true });
  }
}

/** The export's lines, each ended as in a file. */
async function* _lines(lines: AsyncIterable<string>): AsyncIterable<string> {
  for await (const l of lines) yield `${l}\n`;
}

/** Folds the WAL into the file and packs it, as the seed leaves its files. */
function _vacuum(file: string): void {
  const db = new Database(file);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.exec("VACUUM");
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}
