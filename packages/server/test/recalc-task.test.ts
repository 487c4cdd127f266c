/**
 * `POST .../recalc/` with `force` over HTTP on a record with more referencing records than
 * one request recomputes: 200 `{status, force, task_id}`, and the queued `recalc` task
 * (read as a `core_event` record) finishes the rest.
 */
import { RECALC_REFERENCING_LIMIT, runTask, type StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createTestApp, KEYS, seed } from "./helpers/app.js";

const TS = "2026-01-01T00:00:00.000000";
/** Referencing records past the limit: the ones only the task recomputes. */
const EXTRA = 5;

describe("forced recalc past the referencing limit", () => {
  it("answers with a task_id and the task recomputes every remaining record", async () => {
    const t = await createTestApp();
    const id = await seed(t, "alpha", "person", { first_name: "Ada", last_name: "Lovelace" });
    const uri = `/alpha/person/${id}/`;
    const journals: StoredRecord[] = Array.from({ length: RECALC_REFERENCING_LIMIT + EXTRA }, (_, i) => ({
      id: (0xb00000 + i).toString(16).padStart(24, "0"),
      flock: "alpha",
      type: "journal",
      state: "updated",
      data: { name: `j${i}`, contact_ref: uri },
      displayValue: "stale",
      created: TS,
      lastUpdated: TS,
      version: 1,
    }));
    await t.storage.apply({ records: journals.map((record) => ({ kind: "insert" as const, record })) });

    const res = await t.call("POST", `/api/v1/alpha/person/${id}/recalc/`, { key: KEYS.alice, json: { force: true } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; force: boolean; task_id: string };
    expect(body).toEqual({ status: "OK", force: true, task_id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const task = await t.call("GET", `/api/v1/alpha/core_event/${body.task_id}/`, { key: KEYS.alice });
    expect(((await task.json()) as { data: Record<string, unknown> }).data).toMatchObject({ task: "recalc", tag: "queued" });

    const journalPage = () => t.storage.listRecords("alpha", "journal", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 1500 });
    const staleCount = async () => (await journalPage()).records.filter((r) => r.displayValue === "stale").length;
    // The request recomputed at most the limit (the person's contact_created data event
    // references it too and takes a slot); at least the extra ones wait for the task.
    const staleBefore = await staleCount();
    expect(staleBefore).toBeGreaterThanOrEqual(EXTRA);
    expect(staleBefore).toBeLessThan(RECALC_REFERENCING_LIMIT);

    await runTask(t.engine, "alpha", body.task_id);
    const after = await journalPage();
    expect(after.total).toBe(RECALC_REFERENCING_LIMIT + EXTRA);
    expect(after.records).toHaveLength(RECALC_REFERENCING_LIMIT + EXTRA);
    expect(await staleCount()).toBe(0);

    // Without force, or with few referencing records, the answer has no task.
    const plain = await t.call("POST", `/api/v1/alpha/person/${id}/recalc/`, { key: KEYS.alice });
    expect(await plain.json()).toEqual({ status: "OK", force: false });
  });
});
