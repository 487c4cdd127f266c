import {
  RecordsError,
  createFakeClock,
  createMemoryStorage,
  createRecordEngine,
  createSequentialIds,
  createTask,
  runTaskChunk,
  type Storage,
  type StoredRecord,
} from "@records-service/core";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../settings.js";
import type { Worker } from "../runtime/workers.js";
import { createTaskWorkerFactory, taskLeaseName, type TaskWorkerOptions } from "./tasks.js";

const ADD_X = { action: "add_tag", query: {}, value: "x" };

async function setup(storage: Storage = createMemoryStorage()) {
  await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-15T10:00:00.000000" });
  const clock = createFakeClock("2026-01-15T10:00:00.000Z");
  const engine = createRecordEngine({ storage, clock, ids: createSequentialIds() });
  for (let i = 0; i < 7; i++) await engine.create("demo", "person", { first_name: `P${i}` });
  const out: string[] = [];
  const worker = (opts: TaskWorkerOptions = {}): Worker =>
    createTaskWorkerFactory({ chunkSize: 2, pollMs: 10_000, ...opts })({ storage, engine, settings: resolveSettings(), templates: [], clock, secret: "s".repeat(32), out: (l) => out.push(l) });
  const task = async (id: string) => (await storage.getRecord("demo", "core_event", id))!;
  const people = async () => (await storage.listRecords("demo", "person", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 100 })).records;
  return { storage, engine, worker, task, people, out };
}

/**
 * Waits until `check` holds: event-loop turns for at least 2,000 turns and 15 s (a worker
 * polling on a real timer, as in the outage test, needs wall time, not only turns; a loaded
 * machine needs more of it).
 */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (let i = 0; i < 2000 || Date.now() < deadline; i++) {
    if (await check()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error("condition not met");
}

const changedOnce = (people: StoredRecord[]) => people.every((p) => p.version === 2 && JSON.stringify(p.data.tags) === '["x"]');

describe("task worker", () => {
  it("runs a queued task at start, yielding between chunks, and reports the result", async () => {
    const t = await setup();
    const queued = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    let pauses = 0;
    const w = t.worker({ pause: async () => void pauses++ });
    await w.start();
    await until(async () => (await t.task(queued.id)).data.tag === "complete");
    await w.stop();
    expect(pauses).toBe(3); // 7 records in chunks of 2: four chunks, a pause between each
    expect(changedOnce(await t.people())).toBe(true);
    expect(t.out.at(-1)).toMatch(/tasks: bulk_action \w+ \(flock demo\) complete: \{"state":"complete","matched":7,"changed":7/);
  });

  it("logs a task's writes as its requester's, or as system:tasks when it names none", async () => {
    const t = await setup();
    const mine = await createTask(t.engine.withAttribution({ actor: "ada", application: "Acme/Sync/2" }), "demo", "bulk_action", ADD_X);
    const theirs = await createTask(t.engine, "demo", "bulk_action", { ...ADD_X, value: "y" });
    const w = t.worker();
    await w.start();
    await until(async () => (await t.task(theirs.id)).data.tag === "complete" && (await t.task(mine.id)).data.tag === "complete");
    await w.stop();
    const rows = (await t.storage.readChanges("demo", 0, 1000)).changes;
    const of = (id: string) => rows.filter((c) => c.recordId === id && c.version > 1).map((c) => `${c.actor}|${c.application}`);
    expect(new Set(of(mine.id))).toEqual(new Set(["ada|Acme/Sync/2"]));
    expect(new Set(of(theirs.id))).toEqual(new Set(["null|system:tasks"]));
    const tagged = rows.filter((c) => c.type === "person" && c.version > 1);
    expect(tagged).toHaveLength(14);
    expect(tagged.filter((c) => c.fields.includes("tags")).map((c) => c.application).sort()).toEqual([...Array(7).fill("Acme/Sync/2"), ...Array(7).fill("system:tasks")]);
  });

  it("resumes a task found running at start (the server was killed): each record changed once", async () => {
    const t = await setup();
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 2 });
    await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 2 });
    expect((await t.task(task.id)).data).toMatchObject({ tag: "running", changed: 4 });
    const w = t.worker();
    await w.start();
    await until(async () => (await t.task(task.id)).data.tag === "complete");
    await w.stop();
    expect((await t.task(task.id)).data).toMatchObject({ matched: 7, changed: 7, unchanged: 0 });
    expect(changedOnce(await t.people())).toBe(true);
  });

  it("stops between chunks, leaving a task that the next worker finishes", async () => {
    const t = await setup();
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    let w: Worker | undefined;
    let stopping: Promise<void> | undefined;
    w = t.worker({ pause: async () => void (stopping ??= w!.stop()) });
    await w.start();
    await until(async () => stopping !== undefined);
    await stopping;
    expect((await t.task(task.id)).data).toMatchObject({ tag: "running", changed: 2 });
    w = t.worker();
    await w.start();
    await until(async () => (await t.task(task.id)).data.tag === "complete");
    await w.stop();
    expect(changedOnce(await t.people())).toBe(true);
  });

  it("never counts a database outage against a task: it runs once the database is back", async () => {
    const inner = createMemoryStorage();
    let outages = 0;
    const storage: Storage = {
      ...inner,
      scanRecords: (...args) => {
        if (outages >= 5) return inner.scanRecords(...args);
        outages += 1;
        return Promise.reject(new RecordsError("unavailable", "database unavailable"));
      },
    };
    const t = await setup(storage);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    const w = t.worker({ maxFailures: 1, pollMs: 5 });
    await w.start();
    await until(async () => (await t.task(task.id)).data.tag === "complete");
    await w.stop();
    expect(outages).toBe(5);
    expect(t.out.filter((l) => l.includes("database unavailable, retrying later"))).toHaveLength(5);
  });

  it("marks a task failed after repeated unexpected errors, and goes on with the next", async () => {
    const inner = createMemoryStorage();
    let broken = true;
    const storage: Storage = {
      ...inner,
      scanRecords: (...args) => (broken && args[1] === "journal" ? Promise.reject(new Error("disk on fire")) : inner.scanRecords(...args)),
    };
    const t = await setup(storage);
    const bad = await createTask(t.engine, "demo", "bulk_action", { ...ADD_X, resource_type: "journal" });
    const good = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    const w = t.worker({ maxFailures: 1 });
    await w.start();
    await until(async () => (await t.task(bad.id)).data.tag === "failed");
    await w.stop();
    expect((await t.task(bad.id)).data.error).toMatch(/stopped after 1 failed attempts: disk on fire/);
    expect(t.out.some((l) => l.includes("a chunk failed (1 of 1): disk on fire"))).toBe(true);
    broken = false;
    const w2 = t.worker();
    await w2.start();
    await until(async () => (await t.task(good.id)).data.tag === "complete");
    await w2.stop();
  });

  it("skips a task another process holds the lease of, and resumes it after that lease lapses", async () => {
    const t = await setup();
    const queued = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    // Another process ran a chunk, holds the lease, and was killed: its lease stays until it lapses.
    await runTaskChunk(t.engine, "demo", queued.id, { chunkSize: 2 });
    const clock = t.engine.context.clock as ReturnType<typeof createFakeClock>;
    const now = clock.now().getTime();
    await t.storage.updateLimit(`lease:${taskLeaseName("demo", queued.id)}`, now, () => ({ value: "killed-process", expiresAt: now + 60_000 }));
    const w = t.worker({ pollMs: 20 });
    await w.start();
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.task(queued.id)).data.tag).toBe("running");
    clock.advance(60_000);
    await until(async () => (await t.task(queued.id)).data.tag === "complete");
    await w.stop();
    expect(changedOnce(await t.people())).toBe(true);
    expect(JSON.parse(String((await t.task(queued.id)).data.text_body))).toMatchObject({ matched: 7, changed: 7, unchanged: 0, errors: 0 });
  });
});
