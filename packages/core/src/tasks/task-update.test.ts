import { describe, expect, it } from "vitest";
import { rejection } from "../records/test-helpers.js";
import { createTask, runTask, runTaskChunk } from "./run.js";
import { summaryOf, taskSetup } from "./test-helpers.js";

const ADD_X = { action: "add_tag", query: {}, value: "x" };

describe("updating a task record: cancel an active task, nothing else", () => {
  it("cancels a queued task: failed, text_body says cancelled, the runner does nothing", async () => {
    const t = await taskSetup();
    await t.people(3);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    const { record, changed } = await t.engine.update("demo", "core_event", task.id, { tag: "failed" });
    expect(record.data).toMatchObject({ tag: "failed", error: "cancelled" });
    expect(summaryOf(record)).toEqual({ state: "failed", matched: 0, changed: 0, unchanged: 0, errors: 0, error: "cancelled" });
    expect(changed).toMatchObject({ tag: "failed", error: "cancelled" });
    expect(await t.task(task.id)).toEqual(record);
    expect((await runTaskChunk(t.engine, "demo", task.id)).done).toBe(true);
    expect((await t.all("person")).every((p) => p.data.tags === null)).toBe(true);
  });

  it("cancels a running task between chunks, keeping its counts", async () => {
    const t = await taskSetup();
    await t.people(4);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    await runTaskChunk(t.engine, "demo", task.id, { chunkSize: 1 });
    const { record } = await t.engine.update("demo", "core_event", task.id, { tag: "failed" });
    expect(summaryOf(record)).toMatchObject({ state: "failed", matched: 1, changed: 1, error: "cancelled" });
    await runTask(t.engine, "demo", task.id, { chunkSize: 1 });
    expect((await t.all("person")).filter((p) => p.data.tags !== null)).toHaveLength(1);
  });

  it("refuses to requeue, re-run or rewrite a finished task (409 to cancel it, 400 otherwise), changing nothing", async () => {
    const t = await taskSetup();
    await t.people(2);
    const task = await createTask(t.engine, "demo", "bulk_action", ADD_X);
    const done = await runTask(t.engine, "demo", task.id);
    const cancel = await rejection(t.engine.update("demo", "core_event", task.id, { tag: "failed" }));
    expect([cancel.code, cancel.detail]).toEqual(["conflict", expect.stringMatching(/is "complete"; only a queued or running task can be cancelled/)]);
    for (const patch of [{ tag: "queued" }, { tag: "running" }, { tag: "complete" }, { params: { ...ADD_X, value: "y" } }, { text_body: "{}" }, { tag: "failed", error: "x" }, {}]) {
      const e = await rejection(t.engine.update("demo", "core_event", task.id, patch));
      expect([e.code, e.message]).toEqual(["bad_request", "read-only task"]);
    }
    expect(await t.task(task.id)).toEqual(done);
    expect((await runTaskChunk(t.engine, "demo", task.id)).done).toBe(true);
    expect((await t.task(task.id)).data).toMatchObject({ tag: "complete", matched: 2, changed: 2 });
  });

  it("refuses forged params on an active task, so only checked params ever run", async () => {
    const t = await taskSetup();
    await t.people(2);
    const task = await createTask(t.engine, "demo", "bulk_action", { ...ADD_X, query: { first_name: "P0" } });
    const e = await rejection(t.engine.update("demo", "core_event", task.id, { params: { action: "add_tag", query: {}, resource_type: "person", field: "tags", value: "x" } }));
    expect(e.code).toBe("bad_request");
    const done = await runTask(t.engine, "demo", task.id);
    expect(summaryOf(done)).toMatchObject({ matched: 1, changed: 1 });
  });
});
