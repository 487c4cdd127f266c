/**
 * @module bench/scenarios/postgres-writes
 * `--db postgres`: persons created per second on a copy of the seeded database (so each
 * insert meets indexes of the data set's size), against the same rows inserted by hand
 * (bench/lib/hand-pg) on the same copy, alternating round by round: a thousand in one
 * transaction (`storage.apply` of one ChangeSet against one hand-written multi-row insert
 * of each table), and one by one (`engine.create`, with its flock check and validation,
 * against one hand-written transaction per person).
 */
import { createIdSource, createRecordEngine, derive, formatTimestamp, systemClock, validateInput } from "@records-service/core";
import { createPostgresStorage } from "@records-service/postgres";
import { openHandPg, type HandRecord } from "../lib/hand-pg.js";
import { median, round3 } from "../lib/measure.js";
import { personBatch, type PersonInput } from "../lib/persons.js";
import { copyDatabase, dropDatabase } from "../lib/seed-postgres.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";
import { BATCH, createPersonsChangeSet } from "./writes.js";

/** The write scenarios on PostgreSQL. */
export const scenarios: Scenario[] = [{ name: "persons per second", group: "writes", db: "postgres", run: (ctx) => _run(ctx) }];

// --- internal ---

/** Persons per one-by-one round. */
const _ROUND = 100;

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { server, dataset } = ctx.postgres!;
  const copy = `${dataset.database}_writes`;
  ctx.log(`  copying ${dataset.database} to ${copy}`);
  const url = await copyDatabase(server, dataset.database, copy);
  const budgetMs = ctx.quick ? 300 : 3000;
  const persons = personBatch(dataset.seed + 7, 0, BATCH);
  const storage = await createPostgresStorage({ url });
  const hand = openHandPg(url);
  try {
    const engine = createRecordEngine({ storage });
    const cid = await hand.cid(dataset.flock, "person");
    const ids = createIdSource(systemClock);
    const handRecords = (inputs: readonly PersonInput[]): HandRecord[] => {
      const now = formatTimestamp(new Date());
      return inputs.map((input) => ({ id: ids(), created: now, ...derive("person", validateInput("person", { ...input })) }));
    };
    // Warm-up: statements prepared, pages cached, on both sides.
    for (const p of persons.slice(0, 50)) await engine.create(dataset.flock, "person", { ...p });
    for (const p of persons.slice(0, 50)) await hand.insert(cid, handRecords([p]));

    // A thousand in one transaction, alternating. Each side builds its rows (validate, derive, ids) untimed.
    const ours: number[] = [];
    const theirs: number[] = [];
    const started = performance.now();
    while (ours.length < 3 || (performance.now() - started < 2 * budgetMs && ours.length < 20)) {
      const changes = createPersonsChangeSet(dataset.flock, persons, ids, new Date());
      let t = performance.now();
      await storage.apply(changes);
      ours.push(performance.now() - t);
      const rows = handRecords(persons);
      t = performance.now();
      await hand.insert(cid, rows);
      theirs.push(performance.now() - t);
    }
    const batchOurs = BATCH / (median(ours) / 1000);
    const batchHand = BATCH / (median(theirs) / 1000);

    // One by one, alternating rounds of 100. The hand side's rows are built untimed, the
    // engine validates and derives inside `create` (its cost is part of ours).
    const plain: number[] = [];
    const byHand: number[] = [];
    const t0 = performance.now();
    let i = 0;
    while (plain.length < 3 || (performance.now() - t0 < 2 * budgetMs && plain.length < 30)) {
      let t = performance.now();
      for (let k = 0; k < _ROUND; k++) await engine.create(dataset.flock, "person", { ...persons[(i + k) % persons.length]! });
      plain.push(performance.now() - t);
      const rows = handRecords(Array.from({ length: _ROUND }, (_, k) => persons[(i + k) % persons.length]!));
      t = performance.now();
      for (const r of rows) await hand.insert(cid, [r]);
      byHand.push(performance.now() - t);
      i += _ROUND;
    }
    const oneOurs = _ROUND / (median(plain) / 1000);
    const oneHand = _ROUND / (median(byHand) / 1000);
    return [
      {
        scenario: `writes (PostgreSQL): persons/s, ${BATCH} per transaction`,
        ours: round3(batchOurs),
        baseline: round3(batchHand),
        baselineName: "hand-written SQL",
        unit: "rec/s",
        ratio: round3(batchOurs / batchHand),
        note: `median of ${ours.length} ChangeSets of ${BATCH} through storage.apply`,
      },
      {
        scenario: "writes (PostgreSQL): persons/s, one by one (engine.create)",
        ours: round3(oneOurs),
        baseline: round3(oneHand),
        baselineName: "hand-written SQL",
        unit: "rec/s",
        ratio: round3(oneOurs / oneHand),
        note: `median of ${plain.length} rounds of ${_ROUND}; hand: one transaction per person`,
      },
    ];
  } finally {
    await hand.close();
    await storage.close();
    await dropDatabase(server, copy);
  }
}
