/**
 * @module tasks/test-helpers
 * Set-up for the task tests: an engine over a memory Storage (or any) with flocks `demo`
 * and `other`, a fake clock, sequential ids, and readers for tasks and records.
 */
import { createSequentialIds } from "../ids.js";
import { createRecordEngine } from "../records/engine.js";
import { START, START_TS } from "../records/test-helpers.js";
import { createMemoryStorage } from "../memory/memory.js";
import type { StoredRecord } from "../model/record.js";
import type { Storage } from "../storage/storage.js";
import { createFakeClock } from "../time.js";
import type { TriggerConfig } from "../triggers/config.js";
import { runTask } from "./run.js";
import { TASK_TYPE } from "./types.js";

/** An engine over `storage` with flocks demo and other. */
export async function taskSetup(storage: Storage = createMemoryStorage(), triggers: TriggerConfig[] = []) {
  await storage.createFlock({ identifier: "demo", name: "Demo", created: START_TS });
  await storage.createFlock({ identifier: "other", name: "Other", created: START_TS });
  const clock = createFakeClock(START);
  const engine = createRecordEngine({ storage, clock, ids: createSequentialIds(), triggers: (f) => triggers.filter((t) => t.flock === f) });
  const people = async (n: number, data: (i: number) => Record<string, unknown> = (i) => ({ first_name: `P${i}`, last_name: "Seed" }), flock = "demo") => {
    const out: StoredRecord[] = [];
    for (let i = 0; i < n; i++) out.push(await engine.create(flock, "person", data(i)));
    return out;
  };
  const all = async (type: string, flock = "demo") =>
    (await storage.listRecords(flock, type, { filters: [], mode: "AND", states: ["updated", "deleted"], page: 1, pageSize: 1500 })).records;
  const task = async (id: string, flock = "demo") => (await storage.getRecord(flock, TASK_TYPE, id))!;
  const run = (id: string, chunkSize = 3, flock = "demo") => runTask(engine, flock, id, { chunkSize });
  return { storage, clock, engine, people, all, task, run };
}

/** The parsed `text_body` of a task record. */
export function summaryOf(task: StoredRecord): Record<string, unknown> {
  return JSON.parse(task.data.text_body as string) as Record<string, unknown>;
}
