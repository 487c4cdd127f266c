import { describe, expect, it } from "vitest";
import { createRecordEngine } from "../records/engine.js";
import { rejection } from "../records/test-helpers.js";
import { createMemoryStorage } from "../storage/memory.js";
import type { ChangeSet, Storage } from "../storage/types.js";
import { createTaskRegistry } from "./registry.js";
import { createTask, failTask, findActiveTasks, runTask, runTaskChunk } from "./run.js";
import { plannedMove } from "../records/lifecycle.js";
import { summaryOf, taskSetup } from "./test-helpers.js";
import type { TaskKind } from "./types.js";

const ADD_X = { action: "add_tag", query: {}, value: "x" };

describe("task lifecycle", () => {
  it("moves queued → running (with progress in text_body) → complete", async () => {
    const t = await taskSetup();
    await t.people(5);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    expect(summaryOf(task)).toEqual({ state: "queued", matched: 0, changed: 0, unchanged: 0, errors: 0 });
    expect(task.displayValue).toBe("bulk_action");

    t.clock.advance(1000);
    const first = await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 2 });
    expect(first.done).toBe(false);
    expect(first.task.data).toMatchObject({ tag: "running", matched: 2, changed: 2, started_at: "2026-01-15T10:00:01.000000", finished_at: null });
    expect(summaryOf(first.task)).toEqual({ state: "running", matched: 2, changed: 2, unchanged: 0, errors: 0 });
    expect(await t.task(task.id)).toEqual(first.task); // the progress is committed

    t.clock.advance(1000);
    const rest = await runTask(t.engine, "demo", task.id, { chunkSize: 2 });
    expect(rest.data).toMatchObject({ tag: "complete", cursor: null, started_at: "2026-01-15T10:00:01.000000", finished_at: "2026-01-15T10:00:02.000000" });
    expect(summaryOf(rest)).toEqual({ state: "complete", matched: 5, changed: 5, unchanged: 0, errors: 0 });
    // A finished task is left alone.
    expect(await runTaskChunk(t.engine, "demo", task.id)).toEqual({ task: rest, done: true });
  });

  it("refuses an unknown kind, flock or bad params before storing anything", async () => {
    const t = await taskSetup();
    expect((await rejection(createTask(t.engine, "demo", "nope", {}))).detail).toMatch(/"nope" is not a task kind; known: bulk_action, recalc, purge_events/);
    expect((await rejection(createTask(t.engine, "ghost", "bulk_action", ADD_X))).code).toBe("not_found");
    expect((await rejection(createTask(t.engine, "demo", "bulk_action", { action: "add_tag" }))).code).toBe("bad_request");
    expect(await t.all("core_event")).toEqual([]);
  });

  it("fails a task whose stored parameters no longer make sense, or whose kind is unknown", async () => {
    const t = await taskSetup();
    const bad = await t.engine.create("demo", "core_event", { task: "bulk_action", tag: "queued", params: { action: "add_tag", query: { x__bogus: "1" }, resource_type: "journal", value: "t" } });
    const failed = await runTask(t.engine, "demo", bad.id);
    expect(failed.data.tag).toBe("failed");
    expect(summaryOf(failed)).toMatchObject({ state: "failed", error: expect.stringMatching(/modifier "bogus"/) });
    const odd = await t.engine.create("demo", "core_event", { task: "teleport", tag: "queued" });
    expect(summaryOf(await runTask(t.engine, "demo", odd.id))).toMatchObject({ state: "failed", error: expect.stringMatching(/"teleport" is not a task kind/) });
  });

  it("failTask marks an active task failed and leaves a finished one alone", async () => {
    const t = await taskSetup();
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    expect(summaryOf(await failTask(t.engine, "demo", task.id, "worker gave up"))).toMatchObject({ state: "failed", error: "worker gave up" });
    const again = await failTask(t.engine, "demo", task.id, "other");
    expect(again.data.error).toBe("worker gave up");
  });

  it("findActiveTasks lists queued and running tasks of every flock, oldest first", async () => {
    const t = await taskSetup();
    await t.people(3);
    const a = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    t.clock.advance(1000);
    const b = await createTask(t.engine, "other", "bulk_action", ADD_X);
    t.clock.advance(1000);
    const c = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    await runTaskChunk(t.engine, "demo", a.id, { chunkSize: 1 }); // running
    await runTask(t.engine, "demo", c.id); // complete
    await t.engine.create("demo", "core_event", { tag: "queued" }); // not a task
    expect((await findActiveTasks(t.storage)).map((x) => [x.flock, x.id, x.kind])).toEqual([
      ["demo", a.id, "bulk_action"],
      ["other", b.id, "bulk_action"],
    ]);
  });

  it("stops a task whose tag a client changed", async () => {
    const t = await taskSetup();
    await t.people(4);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 1 });
    await t.engine.update("demo", "core_event", task.id, { tag: "failed" });
    const r = await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 1 });
    expect(r.done).toBe(true);
    expect((await t.all("person")).filter((p) => p.data.tags !== null)).toHaveLength(1);
  });
});

describe("durability", () => {
  it("resumes after the worker is dropped: every record changed exactly once, counts right", async () => {
    const storage = createMemoryStorage();
    const t = await taskSetup(storage);
    await t.people(11);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 4 });
    await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 4 });
    // A new engine over the same storage: what a restarted server has.
    const fresh = createRecordEngine({ storage, clock: t.clock });
    const done = await runTask(fresh, "demo", task.id, { chunkSize: 4 });
    expect(summaryOf(done)).toEqual({ state: "complete", matched: 11, changed: 11, unchanged: 0, errors: 0 });
    const people = await t.all("person");
    expect(people.every((p) => p.version === 2 && JSON.stringify(p.data.tags) === '["x"]')).toBe(true);
  });

  it("a chunk that did not commit (a crash) is redone whole; one that did is never redone", async () => {
    const inner = createMemoryStorage();
    let crashAt = 2; // the 2nd chunk's commit fails, as if the process died during it
    let commits = 0;
    const storage: Storage = {
      ...inner,
      apply: async (changes: ChangeSet) => {
        if (changes.records?.some((w) => w.record.type === "core_event" && w.kind === "update") && ++commits === crashAt) {
          throw new Error("process killed");
        }
        return inner.apply(changes);
      },
    };
    const t = await taskSetup(storage);
    await t.people(10);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    await expect(runTask(t.engine, "demo", task.id, { chunkSize: 3 })).rejects.toThrow("process killed");
    expect((await t.task(task.id)).data).toMatchObject({ tag: "running", matched: 3, changed: 3 });
    crashAt = -1;
    const done = await runTask(t.engine, "demo", task.id, { chunkSize: 3 });
    expect(summaryOf(done)).toMatchObject({ matched: 10, changed: 10, unchanged: 0 });
    expect((await t.all("person")).map((p) => p.version)).toEqual(Array(10).fill(2));
  });

  it("retries a chunk that conflicts with a concurrent writer, keeping both changes", async () => {
    const inner = createMemoryStorage();
    let interfere: (() => Promise<void>) | undefined;
    const storage: Storage = {
      ...inner,
      apply: async (changes: ChangeSet) => {
        const once = interfere;
        interfere = undefined;
        if (once) await once();
        return inner.apply(changes);
      },
    };
    const t = await taskSetup(storage);
    const [ada] = await t.people(3);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    interfere = async () => {
      await t.engine.update("demo", "person", ada!.id, { title: "Countess" });
    };
    const done = await runTask(t.engine, "demo", task.id, { chunkSize: 10 });
    expect(summaryOf(done)).toMatchObject({ matched: 3, changed: 3 });
    const first = (await t.storage.getRecord("demo", "person", ada!.id))!;
    expect(first.data).toMatchObject({ title: "Countess", tags: ["x"] });
    expect(first.version).toBe(3);
  });
});

describe("other task kinds", () => {
  it("recalc repairs stale derived values of every match, with force also referencing records", async () => {
    const t = await taskSetup();
    const [ada] = await t.people(2);
    const note = await t.engine.create("demo", "journal", { subject: "call", contact_ref: `/demo/person/${ada!.id}/` });
    // Make the stored derived values stale behind the engine's back.
    for (const r of [ada!, note]) {
      const cur = (await t.storage.getRecord("demo", r.type, r.id))!;
      await t.storage.apply({ records: [{ kind: "update", record: { ...cur, displayValue: "stale", version: cur.version + 1 }, expectedVersion: cur.version }] });
    }
    const plain = await createTask(t.engine, "demo", "recalc", { resource_type: "person" });
    expect(summaryOf(await runTask(t.engine, "demo", plain.id))).toMatchObject({ matched: 2, changed: 1, unchanged: 1 });
    expect((await t.storage.getRecord("demo", "journal", note.id))!.displayValue).toBe("stale");
    const forced = await createTask(t.engine, "demo", "recalc", { resource_type: "person", query: { first_name: "P0" }, force: true });
    expect(summaryOf(await runTask(t.engine, "demo", forced.id))).toMatchObject({ matched: 1, changed: 1, unchanged: 1 });
    expect((await t.storage.getRecord("demo", "journal", note.id))!.displayValue).toBe("call");
    expect((await rejection(createTask(t.engine, "demo", "recalc", { force: "yes" }))).detail).toMatch(/resource_type is required/);
  });

  it("runs kinds registered by others (e.g. purge_events) through the same mechanism", async () => {
    const t = await taskSetup();
    const steps: (string | null)[] = [];
    const counting: TaskKind = {
      name: "count_to_three",
      prepare: async (_ctx, _flock, params) => ({ ...params }),
      step: async (_ctx, task) => {
        steps.push(task.cursor);
        const n = Number(task.cursor ?? 0) + 1;
        return { writes: [], cursor: String(n), done: n === 3, counts: { matched: 1, changed: 0, unchanged: 1, errors: 0 } };
      },
    };
    const registry = createTaskRegistry();
    registry.register(counting);
    expect(() => registry.register(counting)).toThrow(/registered twice/);
    const task = await createTask(t.engine, "demo", "count_to_three", { n: 3 }, { registry });
    const done = await runTask(t.engine, "demo", task.id, { registry });
    expect(steps).toEqual([null, "1", "2"]);
    expect(summaryOf(done)).toMatchObject({ state: "complete", matched: 3, unchanged: 3 });
  });
});

describe("a chunk's files", () => {
  it("are stored in the chunk's change set with its writes, and a lifecycle move is decided as the engine decides it", async () => {
    const t = await taskSetup();
    const [person] = await t.people(1);
    const kind: TaskKind = {
      name: "attach",
      prepare: async (_ctx, _flock, raw) => raw,
      async step(ctx, task) {
        const before = (await ctx.storage.getRecord(task.flock, "person", person!.id))!;
        const file = { id: "f".repeat(24), flock: task.flock, recordType: "person", recordId: before.id, field: "photo", filename: "a.txt", contentType: "text/plain", bytes: new TextEncoder().encode("hi"), created: before.created };
        const after = plannedMove(before, "delete", before.created);
        return { writes: [{ kind: "update", record: after, expectedVersion: before.version, before }], files: [file], cursor: null, done: true, counts: { matched: 1, changed: 1, unchanged: 0, errors: 0 } };
      },
    };
    const registry = createTaskRegistry([kind]);
    const task = await createTask(t.engine, "demo", "attach", {}, { registry });
    const applied: ChangeSet[] = [];
    const apply = t.storage.apply.bind(t.storage);
    t.storage.apply = async (c) => {
      applied.push(c);
      return apply(c);
    };
    await runTask(t.engine, "demo", task.id, { registry });
    expect(applied).toHaveLength(1);
    expect(applied[0]!.files?.map((f) => f.id)).toEqual(["f".repeat(24)]);
    expect(applied[0]!.records?.map((w) => w.record.type).sort()).toEqual(["core_event", "person"]);
    expect((await t.storage.getFile("demo", "f".repeat(24)))?.filename).toBe("a.txt");
    expect((await t.storage.getRecord("demo", "person", person!.id))!.state).toBe("deleted");
    const deleted = (await t.storage.getRecord("demo", "person", person!.id))!;
    expect(() => plannedMove(deleted, "delete", deleted.created)).toThrow();
  });
});
