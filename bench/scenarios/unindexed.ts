/**
 * @module bench/scenarios/unindexed
 * A filter on a field the value index does not keep (issue 24: index what is queried), in
 * process, on a scratch copy of the seeded file: `locality=` of random localities, answered
 * by a scan of the collection, against hand-written SQL asking the JSON the same question
 * (`json_extract`) and against the floor of any scan (every record's JSON read once, `instr`
 * without a parse); then the same field once its index is built (declared and back-filled,
 * as an earned one is), against hand-written SQL on the value index. Medians in ms.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createRecordEngine, parseListQuery, type ListPage, type StoredRecord } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { openHandSql, type HandPage } from "../lib/hand-sql.js";
import { measureOptions, round3, timePair } from "../lib/measure.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** The unindexed-filter scenario. */
export const scenarios: Scenario[] = [{ name: "filter on an unindexed field", group: "unindexed", run: (ctx) => _run(ctx) }];

// --- internal ---

const _FIELD = "locality";

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const file = join(ctx.scratchDir, "unindexed.db");
  copyFileSync(ctx.dataset.file, file);
  const storage = createSqliteStorage({ path: file });
  const engine = createRecordEngine({ storage });
  const { flock } = ctx.dataset;
  const out: ScenarioResult[] = [];
  try {
    // Random localities of random persons: a repeated question would measure a cache.
    const values: string[] = [];
    for (const id of ctx.dataset.sample.personIds.slice(0, 100)) {
      const v = (await engine.get(flock, "person", id)).data[_FIELD];
      if (typeof v === "string" && v !== "") values.push(v);
    }
    if (values.length === 0) throw new Error(`no sampled person has a ${_FIELD}`);
    const query = (i: number) => parseListQuery(new URLSearchParams({ [_FIELD]: values[i % values.length]! }), { surface: "v1", now: new Date() });
    const ours = (i: number) => engine.list(flock, "person", query(i));

    const scan = openHandSql(file);
    const cid = scan.cid(flock, "person");
    const json = (i: number) => scan.list(cid, "json_extract(r.data, ?) = ?", [`$.${_FIELD}`, values[i % values.length]!], { limit: 25, offset: 0 });
    _check("scanned", await ours(0), json(0));
    const first = await ours(0);
    if (!first.scanned) throw new Error(`${_FIELD} is indexed by default: the scenario measures nothing`);
    const t1 = await timePair(ours, json, measureOptions(ctx.quick));
    out.push(_result(`unindexed: ${_FIELD}= answered by a scan`, t1.ours, t1.baseline, "hand-written SQL (json_extract over the data)", "<= 150 ms", t1.iterations));
    // The floor of any scan: every live record's JSON read once and searched for the value
    // (no parse, no page of answers), what a scan cannot do with less.
    const read = scan.db.prepare("SELECT count(*) FROM records WHERE cid = ? AND state = 'updated' AND instr(data, ?) > 0").pluck();
    const floor = (i: number) => read.get(cid, values[i % values.length]!);
    const t0 = await timePair(ours, floor, measureOptions(ctx.quick));
    out.push(_result(`unindexed: ${_FIELD}= answered by a scan, against the floor of a scan`, t0.ours, t0.baseline, "every record's JSON read once (instr over the data, no parse)", "", t0.iterations));
    scan.close();

    await engine.indexes.add(flock, "person", _FIELD);
    const started = performance.now();
    while ((await storage.stepFieldIndexes(2000)) >= 2000);
    const built = performance.now() - started;
    const hand = openHandSql(file);
    const fid = hand.fid(cid, _FIELD);
    const indexed = (i: number) => hand.list(cid, "r.rid IN (SELECT rid FROM record_values WHERE fid = ? AND text = ?)", [fid, values[i % values.length]!], { limit: 25, offset: 0 });
    _check("indexed", await ours(0), indexed(0));
    if ((await ours(0)).scanned) throw new Error(`${_FIELD}: still scanned after its back-fill`);
    const t2 = await timePair(ours, indexed, measureOptions(ctx.quick));
    out.push({
      ..._result(`unindexed: ${_FIELD}= once its index is built`, t2.ours, t2.baseline, "hand-written SQL on the value index", "<= 1.5", t2.iterations),
      note: `median of ${t2.iterations}; back-fill of ${ctx.dataset.size} persons took ${(built / 1000).toFixed(1)} s`,
    });
    hand.close();
    return out;
  } finally {
    await storage.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
}

function _check(name: string, ours: ListPage<StoredRecord>, hand: HandPage): void {
  const a = ours.records.map((r) => r.id).join(",");
  const b = hand.records.map((r) => r.id).join(",");
  if (ours.total !== hand.total || a !== b) throw new Error(`${name}: the engine and the hand-written SQL disagree (totals ${ours.total} / ${hand.total})`);
}

function _result(scenario: string, ours: number, baseline: number, baselineName: string, target: string, iterations: number): ScenarioResult {
  return { scenario, ours: round3(ours), baseline: round3(baseline), baselineName, unit: "ms", ratio: round3(ours / baseline), ...(target ? { target } : {}), note: `median of ${iterations}` };
}
