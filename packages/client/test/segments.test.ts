/**
 * The client's segments methods against a real server (SQLite in memory, the task worker
 * running): lists, trees, create, count, config, look-up, members, the XLSX export and the
 * delete action (both tasks), fieldsets, and errors in the v2 shape.
 */
import type { RunningServer } from "@records-service/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, RecordsApiError, type RecordsClient } from "../src/index.js";
import { APPLICATION, STAFF, testServer } from "./server.js";

describe("the client's segments methods", () => {
  let server: RunningServer;
  let client: RecordsClient;
  const people: string[] = [];

  /** The task's record once it has finished (the server's worker runs it). */
  const finished = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      const task = await client.records("demo", "core_event").get(id);
      if (task.data.tag === "complete" || task.data.tag === "failed") return task.data;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`task ${id} did not finish`);
  };

  beforeAll(async () => {
    server = await testServer({ manualClock: "2026-01-15T10:00:00Z" });
    client = createClient({ baseUrl: server.url, application: APPLICATION, credentials: STAFF });
    for (const [first_name, source] of [["Ada", "web"], ["Bea", "web"], ["Cy", "paper"]]) {
      people.push(((await client.records("demo", "person").create({ first_name, last_name: "Smith", source })).uri as string).split("/")[3]!);
    }
  });
  afterAll(() => server?.close());

  it("creates, lists and nests segments; reads config, look-up and members", async () => {
    const segments = client.segments("demo");
    const web = await segments.create({ name: "Web", resource_type: "person", rules: { source: "web" }, view_context: ["crm"] });
    const child = await segments.create({ name: "Child", resource_type: "person", parent_segment: web.uri });
    expect((await segments.list()).segments.map((s) => s.name)).toEqual(["Child", "Web"]);
    expect((await segments.all({ page_size: 1 })).pages).toBe(2);
    expect((await segments.inContext("crm")).segments.map((s) => s.uid)).toEqual([web.uid]);
    const trees = await segments.trees();
    expect(trees.segments.map((s) => [s.uid, s.children.map((c) => c.uid)])).toEqual([[web.uid, [child.uid]]]);
    expect((await segments.count(web.uid)).count).toBe(2);
    expect((await segments.config(web.uid)).mapping.prefix).toBe("/demo/person/");
    expect((await segments.lookup(web.uid, "bea")).map((m) => m.display_value)).toEqual(["Bea Smith"]);
    const members = await segments.members(web.uid, { page_size: 1, page: 2 });
    expect(members).toMatchObject({ total: 2, pages: 2 });
    await expect(segments.create({ resource_type: "person", rules: { source__bogus: "x" } })).rejects.toMatchObject({ status: 400, body: { type: "bad_request" }, detail: expect.stringMatching(/bogus/) });
    await expect(segments.config("f".repeat(24))).rejects.toBeInstanceOf(RecordsApiError);
  });

  it("exports members as XLSX into a journal and deletes them through tasks; saves and deletes fieldsets", async () => {
    const segments = client.segments("demo");
    const fieldset = await segments.createFieldset({ name: "Names", fields: ["first_name"], applicable_resources: ["person"] });
    expect(fieldset.field_display).toEqual([{ field: "first_name", type: "text" }]);
    expect((await segments.fieldsets("person")).fieldsets.map((f) => f.uid)).toContain(fieldset.uid);
    const paper = await segments.create({ name: "Paper", resource_type: "person", rules: { source: "paper" } });
    const receipt = await segments.exportXlsx(paper.uid, { template: "Names" });
    expect(await finished(receipt.task_id)).toMatchObject({ tag: "complete", matched: 1 });
    const journal = await client.records("demo", "journal").get(receipt.journal_uri.split("/")[3]!);
    expect(journal.data).toMatchObject({ status: "complete", rows: 1 });
    const queued = await segments.deleteMembers(paper.uid, { safe_mode: false, batch_size: 10 });
    expect(await finished(queued.notification_uri.split("/")[3]!)).toMatchObject({ tag: "complete", changed: 1 });
    expect((await segments.count(paper.uid)).count).toBe(0);
    await expect(segments.deleteMembers(paper.uid, { batch_size: 2501 })).rejects.toMatchObject({ status: 400 });
    expect((await segments.deleteFieldset(fieldset.uid)).record_state).toBe("deleted");
    await expect(segments.fieldset(fieldset.uid)).rejects.toMatchObject({ status: 404 });
  });
});
