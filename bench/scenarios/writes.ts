/**
 * @module bench/scenarios/writes
 * Persons created per second, in-process, on a copy of the seeded file (so each insert
 * meets indexes of the data set's size): a thousand at a time in one ChangeSet (one
 * transaction), one by one through `engine.create`, and one by one with an active trigger
 * (a data event and an outbox job written with each person) against the same without.
 * The search index's queue is merged every `SEARCH_MERGE_INTERVAL_MS` meanwhile, as a
 * server's search worker does, so its cost is in the figures.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  createIdSource,
  createRecordEngine,
  derive,
  formatTimestamp,
  SEARCH_MERGE_BATCH,
  SEARCH_MERGE_INTERVAL_MS,
  systemClock,
  validateInput,
  type ChangeSet,
  type EngineOptions,
  type RecordEngine,
  type TriggerConfig,
} from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import Database from "better-sqlite3";
import { median, round3 } from "../lib/measure.js";
import { personBatch, type PersonInput } from "../lib/persons.js";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types.js";

/** Persons per ChangeSet in the one-transaction scenario. */
export const BATCH = 1000;

/** The write scenarios. */
export const scenarios: Scenario[] = [{ name: "persons per second", group: "writes", run: (ctx) => _run(ctx) }];

/**
 * The ChangeSet that creates `inputs` as persons of `flock`, built with the engine's own
 * steps (validate, derive, id, version 1): what N `engine.create` calls would insert, in one.
 */
export function createPersonsChangeSet(flock: string, inputs: readonly PersonInput[], ids: () => string, now: Date): ChangeSet {
  const ts = formatTimestamp(now);
  return {
    records: inputs.map((input) => {
      const { data, displayValue } = derive("person", validateInput("person", { ...input }));
      return {
        kind: "insert" as const,
        record: { id: ids(), flock, type: "person", state: "updated" as const, data, displayValue, created: ts, lastUpdated: ts, version: 1 },
      };
    }),
  };
}

// --- internal ---

async function _run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const { dataset } = ctx;
  const file = join(ctx.scratchDir, `writes-${dataset.size}.db`);
  copyFileSync(dataset.file, file);
  const budgetMs = ctx.quick ? 300 : 3000;
  const persons = personBatch(dataset.seed + 7, 0, BATCH);
  const out: ScenarioResult[] = [];
  const storage = createSqliteStorage({ path: file });
  // The search worker's merges, as `serve` runs them (one at a time).
  let merging: Promise<unknown> | undefined;
  const merger = setInterval(() => {
    merging ??= storage.mergeSearchIndex(SEARCH_MERGE_BATCH).finally(() => (merging = undefined));
  }, SEARCH_MERGE_INTERVAL_MS);
  try {
    const engine = createRecordEngine({ storage });
    // Warm-up: statements prepared, pages cached.
    for (const p of persons.slice(0, 50)) await engine.create(dataset.flock, "person", { ...p });

    // A thousand in one transaction.
    const ids = createIdSource(systemClock);
    const rounds: number[] = [];
    const started = performance.now();
    while (rounds.length < 3 || (performance.now() - started < budgetMs && rounds.length < 20)) {
      const changes = createPersonsChangeSet(dataset.flock, persons, ids, new Date());
      const t = performance.now();
      await storage.apply(changes);
      rounds.push(performance.now() - t);
    }
    const batchRate = BATCH / (median(rounds) / 1000);

    // One by one, without and with an active trigger, alternating rounds of 100.
    const triggered = _triggeredEngine(storage, dataset.flock);
    const plain: number[] = [];
    const withTrigger: number[] = [];
    const t0 = performance.now();
    let i = 0;
    while (plain.length < 3 || (performance.now() - t0 < 2 * budgetMs && plain.length < 30)) {
      plain.push(await _round(engine, dataset.flock, persons, i));
      if (triggered) withTrigger.push(await _round(triggered, dataset.flock, persons, i + 100));
      i += 200;
    }
    const oneRate = 100 / (median(plain) / 1000);
    out.push({
      scenario: `writes: persons/s, ${BATCH} per transaction`,
      ours: round3(batchRate),
      baseline: round3(oneRate),
      baselineName: "one by one",
      unit: "rec/s",
      ratio: round3(batchRate / oneRate),
      note: `median of ${rounds.length} ChangeSets of ${BATCH} through storage.apply`,
    });
    out.push({
      scenario: "writes: persons/s, one by one (engine.create)",
      ours: round3(oneRate),
      baseline: null,
      unit: "rec/s",
      ratio: null,
      target: ">= 5000 rec/s",
      note: `median of ${plain.length} rounds of 100; each create also writes its data event`,
    });
    if (!triggered || withTrigger.length === 0) {
      out.push({ scenario: "writes: persons/s, one by one, active trigger", ours: null, baseline: round3(oneRate), unit: "rec/s", ratio: null, note: "not available yet (EngineOptions.triggers)" });
    } else {
      const jobs = _outboxRows(file);
      const rate = 100 / (median(withTrigger) / 1000);
      out.push({
        scenario: "writes: persons/s, one by one, active trigger",
        ours: round3(rate),
        baseline: round3(oneRate),
        baselineName: "no trigger",
        unit: "rec/s",
        ratio: round3(rate / oneRate),
        note: jobs === undefined ? "no outbox table" : `${jobs} outbox jobs written`,
      });
    }
    return out;
  } finally {
    clearInterval(merger);
    await merging;
    await storage.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
}

/** ms for 100 creates. */
async function _round(engine: RecordEngine, flock: string, persons: readonly PersonInput[], from: number): Promise<number> {
  const t = performance.now();
  for (let k = 0; k < 100; k++) await engine.create(flock, "person", { ...persons[(from + k) % persons.length]! });
  return performance.now() - t;
}

/** An engine whose flock has an active `contact_created` webhook, when the engine takes triggers. */
function _triggeredEngine(storage: EngineOptions["storage"], flock: string): RecordEngine | undefined {
  const trigger: TriggerConfig = {
    flock,
    trigger: "contact_created",
    event: "contact",
    variation: "created",
    action: "send-json-webhook",
    url: "https://hooks.example.org/bench",
    template: null,
    active: true,
    comment: "benchmark",
    conditionalTemplates: null,
  };
  const engine = createRecordEngine({ storage, triggers: () => [trigger] } as EngineOptions);
  return "triggers" in engine.context ? engine : undefined;
}

/** Rows in the outbox table, or undefined when there is none. */
function _outboxRows(file: string): number | undefined {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM outbox").get() as { n: number }).n;
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}
