import { describe, expect, it } from "vitest";
import { MAX_TEXT_VALUE_LENGTH } from "../query/limits.js";
import { recordUri } from "../schema/references.js";
import { validateTriggers } from "../triggers/config.js";
import { createTask } from "./run.js";
import { summaryOf, taskSetup } from "./test-helpers.js";
import { TASK_CHUNK_DATA_LENGTH } from "./types.js";

describe("bulk_action: add_tag and remove_tag", () => {
  it("add_tag adds the tag once to every match; records that have it are unchanged and not written", async () => {
    const t = await taskSetup();
    const people = await t.people(7, (i) => ({ first_name: `P${i}`, last_name: i < 5 ? "Guest" : "Other", tags: i === 1 ? ["gala"] : i === 2 ? ["vip"] : null }));
    const task = await createTask(t.engine, "demo", "bulk_action", { action: "add_tag", query: { last_name: "Guest" }, value: "gala" }, { description: "gala guests" });
    expect(task.data).toMatchObject({ tag: "queued", task: "bulk_action", description: "gala guests", cursor: null, matched: 0 });
    const done = await t.run(task.id, 2);
    expect(done.data.tag).toBe("complete");
    expect(summaryOf(done)).toEqual({ state: "complete", matched: 5, changed: 4, unchanged: 1, errors: 0 });
    const after = await t.all("person");
    expect(after.map((p) => p.data.tags)).toEqual([["gala"], ["gala"], ["vip", "gala"], ["gala"], ["gala"], null, null]);
    expect(after.map((p) => p.version)).toEqual([2, 1, 2, 2, 2, 1, 1]);
    expect(after[1]!.lastUpdated).toBe(people[1]!.lastUpdated);
  });

  it("reads a chunk of large records only up to TASK_CHUNK_DATA_LENGTH, and still changes every match", async () => {
    const t = await taskSetup();
    const big = Object.fromEntries(["a", "b", "c", "d"].map((k) => [k, k.repeat(MAX_TEXT_VALUE_LENGTH - 20)]));
    for (let i = 0; i < 6; i++) await t.engine.create("demo", "journal", { subject: "s", ...big });
    const scans: number[] = [];
    const scan = t.storage.scanRecords.bind(t.storage);
    t.storage.scanRecords = async (...args) => {
      const page = await scan(...args);
      scans.push(page.records.reduce((n, r) => n + JSON.stringify(r.data).length, 0));
      return page;
    };
    const task = await createTask(t.engine, "demo", "bulk_action", { action: "add_tag", query: { subject: "s" }, value: "n", resource_type: "journal" });
    expect(summaryOf(await t.run(task.id, 250))).toMatchObject({ state: "complete", matched: 6, changed: 6 });
    expect(Math.max(...scans)).toBeLessThanOrEqual(TASK_CHUNK_DATA_LENGTH);
    expect(scans.length).toBeGreaterThan(1); // 250 records a chunk, yet more than one chunk
    expect((await t.all("journal")).every((j) => (j.data.tags as string[]).includes("n"))).toBe(true);
  });

  it("remove_tag removes every copy; people without it are unchanged", async () => {
    const t = await taskSetup();
    await t.people(3, (i) => ({ first_name: `P${i}`, tags: [["gala", "vip"], ["vip"], ["gala", "x", "gala"]][i]! }));
    const task = await createTask(t.engine, "demo", "bulk_action", { action: "remove_tag", query: {}, value: "gala" });
    expect(summaryOf(await t.run(task.id))).toMatchObject({ matched: 3, changed: 2, unchanged: 1 });
    expect((await t.all("person")).map((p) => p.data.tags)).toEqual([["vip"], ["vip"], ["x"]]);
  });

  it("works on open types, whose tags may be absent or a lone string", async () => {
    const t = await taskSetup();
    for (const tags of [undefined, "old", ["a"]]) await t.engine.create("demo", "journal", { subject: "s", ...(tags ? { tags } : {}) });
    const task = await createTask(t.engine, "demo", "bulk_action", { action: "add_tag", query: { subject: "s" }, value: "n", resource_type: "journal" });
    await t.run(task.id);
    expect((await t.all("journal")).map((j) => j.data.tags)).toEqual([["n"], ["old", "n"], ["a", "n"]]);
  });

  it("matches with the list query language: modifiers, mode, smart dates; deleted records are left alone", async () => {
    const t = await taskSetup();
    const ps = await t.people(4, (i) => ({ first_name: ["Ada", "Bob", "Cy", "Di"][i]!, last_name: "L" }));
    await t.engine.delete("demo", "person", ps[3]!.id);
    const task = await createTask(t.engine, "demo", "bulk_action", {
      action: "add_tag",
      query: { first_name__startswith: ["A"], first_name: "Cy", mode: "OR" },
      value: "picked",
    });
    await t.run(task.id);
    expect((await t.all("person")).map((p) => p.data.tags)).toEqual([["picked"], null, ["picked"], null]);
    const future = await createTask(t.engine, "demo", "bulk_action", { action: "add_tag", query: { created__gte: "tomorrow" }, value: "late" });
    expect(summaryOf(await t.run(future.id))).toMatchObject({ matched: 0, changed: 0 });
    const past = await createTask(t.engine, "demo", "bulk_action", { action: "add_tag", query: { created__lte: "today" }, value: "now" });
    expect(summaryOf(await t.run(past.id))).toMatchObject({ matched: 3, changed: 3 });
  });
});

describe("bulk_action: set-single-field", () => {
  it("sets the field as PUT would, derived fields included", async () => {
    const t = await taskSetup();
    await t.people(3, (i) => ({ first_name: `P${i}`, last_name: "Smith", title: i === 0 ? "Dr" : null }));
    const task = await createTask(t.engine, "demo", "bulk_action", { action: "set-single-field", query: { last_name: "Smith" }, field: "title", value: "Dr" });
    expect(summaryOf(await t.run(task.id))).toMatchObject({ matched: 3, changed: 2, unchanged: 1 });
    expect((await t.all("person")).map((p) => p.data.formatted_name)).toEqual(["Dr P0 Smith", "Dr P1 Smith", "Dr P2 Smith"]);
  });

  it("converts a boolean field's text and a reference on an open type", async () => {
    const t = await taskSetup();
    const [ada] = await t.people(2);
    await createTask(t.engine, "demo", "bulk_action", { action: "set-single-field", query: {}, field: "adult", value: "true" }).then((x) => t.run(x.id));
    expect((await t.all("person")).map((p) => p.data.adult)).toEqual([true, true]);
    await t.engine.create("demo", "journal", { subject: "call" });
    const uri = recordUri("demo", "person", ada!.id);
    await createTask(t.engine, "demo", "bulk_action", { action: "set-single-field", query: {}, field: "contact_ref", value: uri, resource_type: "journal" }).then((x) => t.run(x.id));
    expect((await t.all("journal"))[0]!.data.contact_ref).toBe(uri);
  });
});

describe("bulk_action: set-single-field-on-last-membership", () => {
  it("sets the field on each matched person's membership with the latest start_date", async () => {
    const t = await taskSetup();
    const [ada, bob, cy] = await t.people(3, (i) => ({ first_name: ["Ada", "Bob", "Cy"][i]!, last_name: "M" }));
    const uri = (p: { id: string }) => recordUri("demo", "person", p.id);
    const m = (type: string, member: string, start: string | null, n: string) => t.engine.create("demo", type, { member, start_date: start, membership_number: n });
    await m("member", uri(ada!), "2024-01-01", "a-2024");
    await m("membership", uri(ada!), "2026-03-01", "a-2026"); // the latest, of the other membership type
    await m("member", uri(ada!), "2025-06-01", "a-2025");
    await m("member", uri(bob!), "2025-01-01", "b-first");
    await m("member", uri(bob!), "2025-01-01", "b-second"); // same start: the later created wins
    await m("member", uri(bob!), null, "b-undated");
    const gone = await m("member", uri(cy!), "2027-01-01", "c-deleted");
    await t.engine.delete("demo", "member", gone.id); // cy's only membership is deleted
    const task = await createTask(t.engine, "demo", "bulk_action", {
      action: "set-single-field-on-last-membership",
      query: { last_name: "M" },
      field: "membership_type",
      value: "gold",
    });
    const done = await t.run(task.id, 2);
    expect(summaryOf(done)).toEqual({
      state: "complete",
      matched: 3,
      changed: 2,
      unchanged: 0,
      errors: 1,
      error_details: [`${uri(cy!)}: no membership`],
    });
    const gold = [...(await t.all("member")), ...(await t.all("membership"))].filter((r) => r.data.membership_type === "gold");
    expect(gold.map((r) => r.data.membership_number).sort()).toEqual(["a-2026", "b-second"]);
  });

  it("emits the events the change implies (a cancelled membership), with jobs for active triggers", async () => {
    const triggers = validateTriggers([{ flock: "demo", trigger: "cancelling_membership", action: "send-json-webhook", url: "https://example.org/h" }]).triggers;
    const t = await taskSetup(undefined, triggers);
    const [ada] = await t.people(1);
    await t.engine.create("demo", "member", { member: recordUri("demo", "person", ada!.id), start_date: "2026-01-01" });
    const task = await createTask(t.engine, "demo", "bulk_action", {
      action: "set-single-field-on-last-membership",
      query: {},
      field: "membership_record_status",
      value: "cancelled",
    });
    await t.run(task.id);
    const events = (await t.all("data_event")).map((e) => e.data.name);
    expect(events).toContain("cancelling_membership");
    expect(await t.storage.listJobs({ flock: "demo" })).toHaveLength(1);
  });
});
