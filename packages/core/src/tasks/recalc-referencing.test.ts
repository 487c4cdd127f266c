import { describe, expect, it } from "vitest";
import { MAX_TEXT_VALUE_LENGTH } from "../query/limits.js";
import { RECALC_REFERENCING_LIMIT } from "../records/recalculated.js";
import { rejection, START_TS } from "../records/test-helpers.js";
import type { StoredRecord } from "../model/record.js";
import { createTask } from "./run.js";
import { summaryOf, taskSetup } from "./test-helpers.js";
import { TASK_CHUNK_DATA_LENGTH } from "./types.js";

/** `n` journal records referencing `uri` whose display value is stale, inserted directly. */
function staleJournals(n: number, uri: string, flock = "demo"): StoredRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: (0xa00000 + i).toString(16).padStart(24, "0"),
    flock,
    type: "journal",
    state: "updated" as const,
    data: { name: `j${i}`, contact_ref: uri, notes: [`${uri};primary`] },
    displayValue: "stale",
    created: START_TS,
    lastUpdated: START_TS,
    version: 1,
  }));
}

describe("forced recalc past the referencing limit", () => {
  it("recomputes the first records at once and queues a recalc task that finishes the rest", async () => {
    const t = await taskSetup();
    const [ada] = await t.people(1);
    const uri = `/demo/person/${ada!.id}/`;
    const extra = 7;
    const others = (await t.storage.listReferencing("demo", uri, 100)).length; // none: the create's data event is no reference
    await t.storage.apply({ records: staleJournals(RECALC_REFERENCING_LIMIT + extra, uri).map((record) => ({ kind: "insert" as const, record })) });
    await t.storage.apply({ records: staleJournals(3, "/demo/person/000000000000000000000999/").map((record) => ({ kind: "insert" as const, record: { ...record, id: record.id.replace(/^0/, "f") } })) });
    const stale = async () => (await t.all("journal")).filter((r) => r.displayValue === "stale" && r.data.contact_ref === uri).length;

    const answer = await t.engine.recalc("demo", "person", ada!.id, { force: true });
    expect(answer).toEqual({ status: "OK", force: true, task_id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect(await stale()).toBe(extra + others);
    const task = await t.task(answer.task_id!);
    expect(task.data).toMatchObject({ task: "recalc", tag: "queued", params: { resource_type: "person", referencing: uri } });

    // The walk reads the types whose records reference: never the data events (keepsReferences).
    const walked = new Set<string>();
    const scan = t.storage.scanRecords.bind(t.storage);
    t.storage.scanRecords = async (flock, type, ...rest) => (walked.add(type), scan(flock, type, ...rest));
    const done = await t.run(answer.task_id!, 250);
    expect(summaryOf(done)).toMatchObject({ state: "complete", changed: extra + others, errors: 0 });
    expect(await stale()).toBe(0);
    expect([...walked]).toContain("journal");
    expect([...walked]).not.toContain("data_event");
    expect((await t.storage.summarizeTypes("demo")).map((s) => s.name)).toContain("data_event");
    // Records referencing another record are not touched.
    expect((await t.all("journal")).filter((r) => r.displayValue === "stale")).toHaveLength(3);
  });

  it("queues nothing when every referencing record fits", async () => {
    const t = await taskSetup();
    const [ada] = await t.people(1);
    const others = (await t.storage.listReferencing("demo", `/demo/person/${ada!.id}/`, 100)).length;
    await t.storage.apply({ records: staleJournals(RECALC_REFERENCING_LIMIT - others, `/demo/person/${ada!.id}/`).map((record) => ({ kind: "insert" as const, record })) });
    expect(await t.engine.recalc("demo", "person", ada!.id, { force: true })).toEqual({ status: "OK", force: true });
    expect(await t.all("core_event")).toHaveLength(0);
    expect((await t.all("journal")).every((r) => r.displayValue !== "stale")).toBe(true);
  });

  it("leaves every referencing record to the task when their data passes MAX_LIST_ANSWER_LENGTH, and the task reads it in chunks", async () => {
    const t = await taskSetup();
    const [ada] = await t.people(1);
    const uri = `/demo/person/${ada!.id}/`;
    // Six stale journals of 1 MiB each: fewer than the limit, more data than one read may take.
    const big = (i: number) => ["a", "b", "c", "d"].map((k) => [`${k}${i}`, k.repeat(MAX_TEXT_VALUE_LENGTH - 20)]);
    const journals = staleJournals(6, uri).map((r, i) => ({ ...r, data: { ...r.data, ...Object.fromEntries(big(i)) } }));
    await t.storage.apply({ records: journals.map((record) => ({ kind: "insert" as const, record })) });
    const answer = await t.engine.recalc("demo", "person", ada!.id, { force: true });
    expect(answer).toEqual({ status: "OK", force: true, task_id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect((await t.all("journal")).filter((r) => r.displayValue === "stale")).toHaveLength(6); // none done in the request

    const scans: number[] = [];
    const scan = t.storage.scanRecords.bind(t.storage);
    t.storage.scanRecords = async (...args) => {
      const page = await scan(...args);
      scans.push(page.records.reduce((n, r) => n + JSON.stringify(r.data).length, 0));
      return page;
    };
    const done = await t.run(answer.task_id!, 250);
    expect(summaryOf(done)).toMatchObject({ state: "complete", errors: 0 });
    expect((await t.all("journal")).filter((r) => r.displayValue === "stale")).toHaveLength(0);
    expect(Math.max(...scans)).toBeLessThanOrEqual(TASK_CHUNK_DATA_LENGTH);
  });

  it.each([
    { name: "text that is not a URI", params: { referencing: "ada" }, detail: /must be a record URI of flock "demo"/ },
    { name: "a URI of another flock", params: { referencing: "/other/person/000000000000000000000001/" }, detail: /must be a record URI of flock "demo"/ },
    { name: "a record that does not exist", params: { referencing: "/demo/person/0123456789abcdef01234567/" }, detail: /no record/ },
    { name: "a query beside it", params: { referencing: "/demo/person/000000000000000000000001/", query: { first_name: "x" } }, detail: /no query and no force/ },
    { name: "a number", params: { referencing: 7 }, detail: /referencing must be a record URI/ },
  ])("a recalc task refuses referencing as $name", async ({ params, detail }) => {
    const t = await taskSetup();
    await t.people(1);
    const e = await rejection(createTask(t.engine, "demo", "recalc", { resource_type: "person", ...params }));
    expect([e.code, e.detail]).toEqual(["bad_request", expect.stringMatching(detail)]);
  });
});
