/**
 * The segments gateway beyond find and count (spec v2-gateway section 7) on every storage
 * adapter: the lists, view contexts, trees, create, config, look-up, members, the XLSX export
 * (read back with exceljs), the delete action (through the engine: the change feed and the
 * audit see it; safe_mode deletes nothing), fieldsets, the 501s, auth before any read, bad
 * input in the v2 error shape with nothing written, deleted segments 404.
 */
import { runTask, type StoredRecord } from "@records-service/core";
import ExcelJS from "exceljs";
import { describe, expect, it, vi } from "vitest";
import { serverTaskRegistry } from "../src/workers/task-kinds.js";
import { KEYS, type TestApp } from "./helpers/app.js";
import { adapterAvailable, EVERY_ADAPTER, setupOn } from "./helpers/every-adapter.js";
import { createSegment, seedSegmentPeople } from "./helpers/segments.js";

const json = async (res: Response) => (await res.json()) as Record<string, any>;
const S = "/segments/v2/alpha";

const seedPeople = seedSegmentPeople;
const seg = createSegment;

/** Every record of `type` in alpha, deleted ones too. */
async function allOf(t: TestApp, type: string): Promise<StoredRecord[]> {
  return (await t.storage.listRecords("alpha", type, { filters: [], mode: "AND", states: ["updated", "deleted"], page: 1, pageSize: 1500 })).records;
}

/** The v2 error shape, with the status. */
async function expectError(res: Response, status: number, match?: RegExp) {
  expect(res.status).toBe(status);
  const body = await json(res);
  expect(Object.keys(body).sort()).toEqual(["description", "error", "title", "type"]);
  expect(body.error).toBe(body.title);
  if (match) expect(body.description).toMatch(match);
  return body;
}

describe.each(EVERY_ADAPTER)("segments gateway P2 on %s", (name) => {
  const setup = setupOn(name);
  const run = adapterAvailable(name) ? it : it.skip;

  run("refuses no key, another flock's key and a member token before reading or writing anything (positive control first)", async () => {
    const t = await setup();
    await seedPeople(t);
    const id = await seg(t, { name: "Web", resource_type: "person", rules: { source: "web" }, view_context: ["crm"] });
    const fs = (await t.engine.create("alpha", "fieldset", { name: "F", fields: ["first_name"] })).id;
    const gets = [S, `${S}/all`, `${S}/trees`, `${S}/crm`, `${S}/segment/${id}/config`, `${S}/segment/${id}/lookup`, `${S}/segment/${id}/all`, `${S}/segment/${id}/all/csv`, `${S}/fieldset`, `${S}/fieldset/${fs}`];
    for (const p of gets) expect((await t.call("GET", p, { key: KEYS.alice })).status, p).toBe(200);
    const writes: [string, string, unknown][] = [
      ["POST", `${S}/create`, { name: "N", resource_type: "person" }],
      ["POST", `${S}/segment/${id}/action/delete`, { safe_mode: true }],
      ["GET", `${S}/segment/${id}/all/xlsx`, undefined],
      ["POST", `${S}/fieldset`, { fields: ["last_name"] }],
    ];
    for (const [m, p, body] of writes) expect((await t.call(m, p, { key: KEYS.alice, json: body })).status, p).toBeLessThan(300);
    const spies = ["getRecord", "getRecords", "scanRecords", "listRecords", "apply"].map((f) => vi.spyOn(t.storage, f as "getRecord"));
    const all: [string, string, unknown][] = [...gets.map((p) => ["GET", p, undefined] as [string, string, unknown]), ...writes, ["DELETE", `${S}/fieldset/${fs}`, undefined], ["DELETE", `${S}/fieldset?uid=${fs}`, undefined]];
    for (const [m, p, body] of all) {
      for (const [key, status] of [[undefined, 401], [KEYS.bob, 403], [KEYS.member, 403]] as const) {
        await expectError(await t.call(m, p, { key, json: body }), status);
      }
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  run("lists active segments by name, all of them with `all`, by view context; paging; fixed words keep their routes", async () => {
    const t = await setup();
    await seg(t, { name: "beta", resource_type: "person", view_context: "crm" });
    await seg(t, { name: "Alpha", resource_type: "person", view_context: ["events", "crm"] });
    await seg(t, { name: "Off", resource_type: "person", active: false, view_context: ["crm"] });
    const gone = await seg(t, { name: "Gone", resource_type: "person", view_context: ["crm"] });
    await t.engine.delete("alpha", "segment", gone);
    const names = async (p: string) => (await json(await t.call("GET", p, { key: KEYS.alice }))).segments.map((s: any) => s.name);
    expect(await names(S)).toEqual(["Alpha", "beta"]);
    expect(await names(`${S}/all`)).toEqual(["Alpha", "beta", "Off"]);
    expect(await names(`${S}/crm`)).toEqual(["Alpha", "beta"]);
    expect(await names(`${S}/events/`)).toEqual(["Alpha"]);
    expect(await names(`${S}/giving`)).toEqual([]);
    const page = await json(await t.call("GET", `${S}/all?page_size=2&page=2`, { key: KEYS.alice }));
    expect(page).toMatchObject({ page: 2, page_size: 2, total: 3, pages: 2 });
    expect(page.segments.map((s: any) => s.name)).toEqual(["Off"]);
    // The fixed words are their own paths, not view contexts.
    expect(Array.isArray((await json(await t.call("GET", `${S}/trees`, { key: KEYS.alice }))).segments)).toBe(true);
    expect(await json(await t.call("GET", `${S}/fieldset`, { key: KEYS.alice }))).toEqual({ errors: [], fieldsets: [] });
    await expectError(await t.call("GET", `${S}/find`, { key: KEYS.alice }), 400, /name/);
    const before = await allOf(t, "segment");
    await expectError(await t.call("GET", `${S}/spaceships`, { key: KEYS.alice }), 400, /not a view context/);
    await expectError(await t.call("GET", `${S}/create`, { key: KEYS.alice }), 400, /path of its own/);
    for (const q of ["page_size=abc", "page_size=0", "page_size=1501", "page=0"]) await expectError(await t.call("GET", `${S}?${q}`, { key: KEYS.alice }), 400);
    await expectError(await t.call("GET", `${S}/crm?page_size=abc`, { key: KEYS.alice }), 400, /page_size/);
    expect(await allOf(t, "segment")).toEqual(before);
  });

  run("trees nest children by name; missing or deleted parents make roots; loops show each segment once", async () => {
    const t = await setup();
    const uri = (id: string) => `/alpha/segment/${id}/`;
    const root = await seg(t, { name: "Root", resource_type: "person" });
    const kidB = await seg(t, { name: "B kid", resource_type: "person", parent_segment: uri(root) });
    await seg(t, { name: "A kid", resource_type: "person", parent_segment: uri(root) });
    await seg(t, { name: "Grandchild", resource_type: "person", parent_segment: uri(kidB) });
    const dead = await seg(t, { name: "Dead", resource_type: "person" });
    await seg(t, { name: "Orphan", resource_type: "person", parent_segment: uri(dead) });
    await t.engine.delete("alpha", "segment", dead);
    await seg(t, { name: "Lost", resource_type: "person", parent_segment: "/alpha/segment/ffffffffffffffffffffffff/" });
    const x = await seg(t, { name: "Loop X", resource_type: "person" });
    const y = await seg(t, { name: "Loop Y", resource_type: "person", parent_segment: uri(x) });
    await t.engine.update("alpha", "segment", x, { parent_segment: uri(y) });
    const self = await seg(t, { name: "Self", resource_type: "person" });
    await t.engine.update("alpha", "segment", self, { parent_segment: uri(self) });
    const body = await json(await t.call("GET", `${S}/trees/`, { key: KEYS.alice }));
    const shape = (n: any): any => [n.name, n.children.map(shape)];
    expect(body.segments.map(shape)).toEqual([
      ["Loop X", [["Loop Y", []]]],
      ["Lost", []],
      ["Orphan", []],
      ["Root", [["A kid", []], ["B kid", [["Grandchild", []]]]]],
      ["Self", []],
    ]);
    expect(body.segments[3]).toMatchObject({ uid: root, uri: uri(root), resource_type: "person", user_interface: { can_create_segment: true } });
  });

  run("create: checks every parameter first (400 naming the bad one, nothing written), then creates through the engine", async () => {
    const t = await setup();
    const parent = await seg(t, { name: "Parent", resource_type: "person" });
    const bad: [unknown, RegExp][] = [
      [{ name: "x" }, /resource_type/],
      [{ name: "x", resource_type: "spaceship" }, /spaceship/],
      [{ name: "x", resource_type: "person", rules: { source__bogus: "web" } }, /bogus/],
      [{ name: "x", resource_type: "person", rules: [{ field: "source", operator: "equals", value: "web" }, { field: "source", operator: "like", value: "w" }] }, /rules\[1\].*unknown operator "like"/],
      [{ name: "x", resource_type: "person", rules: { not_a_field: "x" } }, /not_a_field/],
      [{ name: "x", resource_type: "person", rules: "not json" }, /rules/],
      [{ name: "x", resource_type: "person", segment_type: "weird" }, /segment_type/],
      [{ name: "x", resource_type: "person", view_context: ["crm", "nowhere"] }, /nowhere/],
      [{ name: "x", resource_type: "person", parent_segment: "/alpha/segment/ffffffffffffffffffffffff/" }, /parent_segment|no segment/],
      [{ name: "x", resource_type: "person", uris_include: ["/beta/person/ffffffffffffffffffffffff/"] }, /uris_include/],
      [{ name: "x", resource_type: "person", active: "maybe" }, /active/],
      [{ name: 5, resource_type: "person" }, /name/],
    ];
    const segments = await allOf(t, "segment");
    const head = (await t.storage.readChanges("alpha", 0, 1000)).head;
    for (const [body, why] of bad) await expectError(await t.call("POST", `${S}/create`, { key: KEYS.alice, json: body }), 400, why);
    await expectError(await t.call("POST", `${S}/create?resource_type=person&rules=${encodeURIComponent('{"source__nope":"x"}')}`, { key: KEYS.alice }), 400, /nope/);
    expect(await allOf(t, "segment")).toEqual(segments);
    expect((await t.storage.readChanges("alpha", 0, 1000)).head).toBe(head);

    const res = await t.call("POST", `${S}/create`, {
      key: KEYS.alice,
      json: { name: "Web folk", description: "d", resource_type: "person", rules: [{ field: "source", operator: "equals", value: "web" }], view_context: "crm", parent_segment: `/alpha/segment/${parent}/`, tags: ["t"] },
    });
    expect(res.status).toBe(201);
    const packet = await json(res);
    expect(packet).toMatchObject({ name: "Web folk", description: "d", resource_type: "person", segment_type: "dynamic", active: true, view_context: ["crm"], parent_segment: `/alpha/segment/${parent}/`, tags: ["t"], system_segment: false, record_state: "updated" });
    const stored = await t.storage.getRecord("alpha", "segment", packet.uid);
    expect(stored?.data.rules).toEqual([{ field: "source", operator: "equals", value: "web" }]);
    const changes = (await t.storage.readChanges("alpha", head, 1000)).changes;
    expect(changes.some((c) => c.type === "segment" && c.recordId === packet.uid && c.actor === "alice")).toBe(true);
    // Query-string parameters work too, rules as JSON text; the segment counts as created.
    const q = await t.call("POST", `${S}/create?name=Q&resource_type=contact&rules=${encodeURIComponent('{"source":"web"}')}&active=false`, { key: KEYS.alice });
    expect(q.status).toBe(201);
    expect(await json(q)).toMatchObject({ name: "Q", resource_type: "contact", active: false, rules: { source: "web" } });
  });

  run("config, lookup and members: q, paging, verbose; a deleted, unknown or non-segment uid is 404", async () => {
    const t = await setup();
    const people = await seedPeople(t);
    const org = (await t.engine.create("alpha", "organisation", { name: "Smith & Co", source: "web" })).id;
    const id = await seg(t, { name: "Web", resource_type: "person", segment_type: "hybrid", rules: { source: "web" }, uris_include: [`/alpha/person/${people[3]}/`], uris_exclude: [`/alpha/person/${people[1]}/`] });
    const config = await json(await t.call("GET", `${S}/segment/${id}/config`, { key: KEYS.alice }));
    expect(config).toMatchObject({ segment: `/alpha/segment/${id}/`, resource_type: "person", segment_type: "hybrid", user_groups: [], user_interface: { can_bypass_gdpr: [] } });
    expect(config.mapping).toMatchObject({ collection: "person", prefix: "/alpha/person/", unique_field: "uri", use_mapreduce: false, join_people: true, join_orgs: false });
    expect(config.mapping.field_list).toContain("first_name");
    await t.engine.create("alpha", "fieldset", { name: "Short", fields: ["first_name", "email"], applicable_resources: ["person"] });
    const withFieldset = await json(await t.call("GET", `${S}/segment/${id}/config`, { key: KEYS.alice }));
    expect(withFieldset.mapping.field_list).toEqual(["first_name", "email"]);
    expect(withFieldset.mapping.fields[0]).toEqual({ field: "first_name", form_type: "text", label: "First name", style: null });

    const lookup = await json(await t.call("GET", `${S}/segment/${id}/lookup?q=SM`, { key: KEYS.alice }));
    const ada = `/alpha/person/${people[0]}/`;
    expect(lookup).toEqual([
      { display_value: "Ada Smith", id: ada, label: "Ada Smith", text: "Ada Smith", uri: ada, value: ada },
      expect.objectContaining({ display_value: "Di Smart" }),
    ]);
    expect(await json(await t.call("GET", `${S}/segment/${id}/lookup?limit=1`, { key: KEYS.alice }))).toHaveLength(1);
    for (const l of ["0", "101", "abc"]) await expectError(await t.call("GET", `${S}/segment/${id}/lookup?limit=${l}`, { key: KEYS.alice }), 400, /limit/);

    const all = await json(await t.call("GET", `${S}/segment/${id}/all`, { key: KEYS.alice }));
    expect(all).toMatchObject({ total: 3, page: 1, page_size: 25, pages: 1 });
    expect(all.results.map((r: any) => r.display_value)).toEqual(["Ada Smith", "Cy Jones", "Di Smart"]);
    const p2 = await json(await t.call("GET", `${S}/segment/${id}/all?page_size=2&page=2`, { key: KEYS.alice }));
    expect(p2).toMatchObject({ total: 3, pages: 2 });
    expect(p2.results.map((r: any) => r.display_value)).toEqual(["Di Smart"]);
    const q = await json(await t.call("GET", `${S}/segment/${id}/all?q=sm&page_size=1`, { key: KEYS.alice }));
    expect(q).toMatchObject({ total: 2, pages: 2 });
    expect(q.results.map((r: any) => r.display_value)).toEqual(["Ada Smith"]);
    await t.engine.create("alpha", "membership", { member: ada, name: "m" });
    const ref = await t.engine.update("alpha", "person", people[0]!, { connections: [] });
    expect(ref.record.id).toBe(people[0]);
    const verbose = await json(await t.call("GET", `${S}/segment/${id}/all?verbose=true&page_size=1`, { key: KEYS.alice }));
    expect(verbose.results[0]).toEqual(await t.engine.toSingle((await t.storage.getRecord("alpha", "person", people[0]!))!));
    await expectError(await t.call("GET", `${S}/segment/${id}/all?page_size=abc`, { key: KEYS.alice }), 400, /page_size/);
    await expectError(await t.call("GET", `${S}/segment/${id}/all?verbose=perhaps`, { key: KEYS.alice }), 400, /verbose/);

    // A contact segment lists persons, then organisations.
    const contacts = await seg(t, { name: "Smiths", resource_type: "contact", rules: { source: "web" } });
    const c = await json(await t.call("GET", `${S}/segment/${contacts}/all?q=smith`, { key: KEYS.alice }));
    expect(c.results.map((r: any) => r.display_value)).toEqual(["Ada Smith", "Smith & Co"]);

    const badRule = await seg(t, { name: "bad", resource_type: "person", rules: { source__bogus: "x" } });
    for (const p of ["config", "lookup", "all", "all/xlsx", "all/csv"]) await expectError(await t.call("GET", `${S}/segment/${badRule}/${p}`, { key: KEYS.alice }), 400, /bogus/);

    await t.engine.delete("alpha", "segment", id);
    for (const uid of [id, people[0]!, org, "f".repeat(24)]) {
      for (const p of ["config", "lookup", "all", "all/xlsx", "all/excel", "all/csv"]) await expectError(await t.call("GET", `${S}/segment/${uid}/${p}`, { key: KEYS.alice }), 404);
      await expectError(await t.call("POST", `${S}/segment/${uid}/action/delete`, { key: KEYS.alice, json: { safe_mode: true } }), 404);
    }
  });

  run("all/csv streams the members with the XLSX's columns; an unknown template is a 400 before any byte", async () => {
    const t = await setup();
    const people = await seedPeople(t);
    await t.engine.update("alpha", "person", people[0]!, { email: ["ada@example.org"], tags: ["a", "b"] });
    const id = await seg(t, { name: "Web", resource_type: "person", rules: { source: "web" } });
    await t.engine.create("alpha", "fieldset", { name: "Names", fields: ["last_name", "first_name", "tags"], applicable_resources: ["person"] });
    const res = await t.call("GET", `${S}/segment/${id}/all/csv?template=names`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await res.text()).toBe("Last name,First name,Tags\nSmith,Ada,\"a, b\"\nSmythe,Bea,\nJones,Cy,\n");
    const full = await (await t.call("GET", `${S}/segment/${id}/all/csv`, { key: KEYS.alice })).text();
    expect(full.split("\n")[0]!.startsWith("Display value,")).toBe(true);
    expect(full.trim().split("\n")).toHaveLength(4);
    await expectError(await t.call("GET", `${S}/segment/${id}/all/csv?template=nope`, { key: KEYS.alice }), 400, /nope/);
  });

  run("all/xlsx queues a task that writes the members into a journal; exceljs reads the file back", async () => {
    const t = await setup();
    const people = await seedPeople(t);
    await t.engine.update("alpha", "person", people[0]!, { email: ["ada@example.org"], tags: ["a", "b"] });
    const id = await seg(t, { name: "Web", resource_type: "person", rules: { source: "web" } });
    const journals = (await allOf(t, "journal")).length;
    const res = await t.call("GET", `${S}/segment/${id}/all/xlsx?debug=true`, { key: KEYS.alice });
    expect(res.status).toBe(200);
    const receipt = await json(res);
    expect(receipt).toMatchObject({ bucket: "alpha", uid: id, template: null, policy: null, gdpr_bypass: false, gdpr_channel: null, user_uri: "alice", use_mapreduce: false, report_format: "xlsx", debug: true });
    const jid = receipt.journal_uri.split("/")[3];
    expect((await t.storage.getRecord("alpha", "journal", jid))?.data).toMatchObject({ status: "queued", files: [] });
    const done = await runTask(t.engine, "alpha", receipt.task_id, { registry: serverTaskRegistry });
    expect(done.data).toMatchObject({ tag: "complete", matched: 3 });
    const journal = (await t.storage.getRecord("alpha", "journal", jid))!;
    expect(journal.data).toMatchObject({ status: "complete", rows: 3, segment: `/alpha/segment/${id}/`, report_format: "xlsx" });
    const url = (journal.data.files as string[])[0]!;
    const file = await t.call("GET", url, { key: KEYS.alice });
    expect(file.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await file.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 2)).toEqual(["Display value", "Bio"]);
    expect(header).toContain("First name");
    const col = (label: string) => header.indexOf(label) + 1;
    const rows = [2, 3, 4].map((n) => sheet.getRow(n));
    expect(rows.map((r) => r.getCell(1).value)).toEqual(["Ada Smith", "Bea Smythe", "Cy Jones"]);
    expect(rows[0]!.getCell(col("Email")).value).toBe("ada@example.org");
    expect(rows[0]!.getCell(col("Tags")).value).toBe("a, b");
    expect(sheet.rowCount).toBe(4);
    expect((await allOf(t, "journal")).length).toBe(journals + 1);

    // A fieldset as the template (by name, case ignored), through the excel alias.
    await t.engine.create("alpha", "fieldset", { name: "Names", fields: ["last_name", "first_name"], applicable_resources: ["person"] });
    const r2 = await json(await t.call("GET", `${S}/segment/${id}/all/excel?template=names`, { key: KEYS.alice }));
    await runTask(t.engine, "alpha", r2.task_id, { registry: serverTaskRegistry });
    const j2 = (await t.storage.getRecord("alpha", "journal", r2.journal_uri.split("/")[3]))!;
    const b2 = new ExcelJS.Workbook();
    await b2.xlsx.load((await (await t.call("GET", (j2.data.files as string[])[0]!, { key: KEYS.alice })).arrayBuffer()) as unknown as ExcelJS.Buffer);
    expect(b2.worksheets[0]!.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1))).toEqual([
      ["Last name", "First name"],
      ["Smith", "Ada"],
      ["Smythe", "Bea"],
      ["Jones", "Cy"],
    ]);
    // An unknown template is a 400 and nothing is queued.
    const tasks = (await allOf(t, "core_event")).length;
    await expectError(await t.call("GET", `${S}/segment/${id}/all/xlsx?template=nope`, { key: KEYS.alice }), 400, /nope/);
    expect((await allOf(t, "core_event")).length).toBe(tasks);
    expect((await allOf(t, "journal")).length).toBe(journals + 2);

    // A segment deleted between the request and the task: the journal says failed, no file.
    const r3 = await json(await t.call("GET", `${S}/segment/${id}/all/xlsx`, { key: KEYS.alice }));
    await t.engine.delete("alpha", "segment", id);
    const failed = await runTask(t.engine, "alpha", r3.task_id, { registry: serverTaskRegistry });
    expect(failed.data).toMatchObject({ tag: "complete", errors: 1 });
    expect((await t.storage.getRecord("alpha", "journal", r3.journal_uri.split("/")[3]))!.data).toMatchObject({ status: "failed", files: [], error: expect.stringMatching(/no segment/) });
  });

  run("action/delete: safe_mode only counts; a real run deletes members in batches through the engine (change feed, audit); bad batch_size 400", async () => {
    const t = await setup();
    const people = await seedPeople(t);
    const id = await seg(t, { name: "Web", resource_type: "person", segment_type: "hybrid", rules: { source: "web" }, uris_include: [`/alpha/person/${people[3]}/`] });
    const tasks = (await allOf(t, "core_event")).length;
    for (const b of [0, 2501, "abc", 1.5]) {
      await expectError(await t.call("POST", `${S}/segment/${id}/action/delete`, { key: KEYS.alice, json: { batch_size: b } }), 400, /batch_size/);
      await expectError(await t.call("POST", `${S}/segment/${id}/action/delete?batch_size=${b}`, { key: KEYS.alice }), 400, /batch_size/);
    }
    await expectError(await t.call("POST", `${S}/segment/${id}/action/delete`, { key: KEYS.alice, json: { rules: { source__bogus: "x" } } }), 400, /bogus/);
    await expectError(await t.call("POST", `${S}/segment/${id}/action/delete`, { key: KEYS.alice, json: { rules: ["x"] } }), 400, /rules/);
    await expectError(await t.call("POST", `${S}/segment/${id}/action/delete`, { key: KEYS.alice, json: { safe_mode: "sure" } }), 400, /safe_mode/);
    expect((await allOf(t, "core_event")).length).toBe(tasks);

    const head = (await t.storage.readChanges("alpha", 0, 1000)).head;
    const safe = await t.call("POST", `${S}/segment/${id}/action/delete?safe_mode=true&batch_size=2500`, { key: KEYS.alice });
    expect(safe.status).toBe(200);
    const s = await json(safe);
    expect(s.lambda_params).toEqual({ uri: `/alpha/segment/${id}/`, rules: {}, safe_mode: true, batch_size: 2500 });
    const counted = await runTask(t.engine, "alpha", s.notification_uri.split("/")[3], { registry: serverTaskRegistry });
    expect(counted.data).toMatchObject({ tag: "complete", matched: 4, changed: 0 });
    expect((await t.storage.readChanges("alpha", head, 1000, ["person"])).changes).toEqual([]);
    expect((await json(await t.call("GET", `${S}/segment/${id}/count`, { key: KEYS.alice }))).count).toBe(4);

    // Extra rules narrow it: the web people whose last name starts with "Sm", then the rest.
    const res = await t.call("POST", `${S}/segment/${id}/action/delete`, { key: KEYS.alice, json: { rules: { last_name__startswith: "Sm" }, batch_size: 1 } });
    const queued = await json(res);
    expect(queued.notification_uri).toMatch(/^\/alpha\/core_event\/[0-9a-f]{24}\/$/);
    const done = await runTask(t.engine, "alpha", queued.notification_uri.split("/")[3], { registry: serverTaskRegistry });
    expect(done.data).toMatchObject({ tag: "complete", matched: 3, changed: 3 });
    const state = async (i: number) => (await t.storage.getRecord("alpha", "person", people[i]!))!.state;
    expect(await Promise.all([0, 1, 2, 3, 4].map(state))).toEqual(["deleted", "deleted", "updated", "deleted", "updated"]);
    const changes = (await t.storage.readChanges("alpha", head, 1000, ["person"])).changes;
    expect(changes.filter((c) => c.state === "deleted").map((c) => c.recordId).sort()).toEqual([people[0], people[1], people[3]].sort());
    expect(changes.every((c) => c.actor === "alice")).toBe(true);
    // The record's audit reads the same log: the deletion is alice's.
    const audit = await json(await t.call("GET", `/audit/v2/alpha/person/${people[0]}/audit`, { key: KEYS.alice }));
    expect(audit.results.map((r: any) => r.message)).toContain("alice deleted this person");
    const rest = await json(await t.call("POST", `${S}/segment/${id}/action/delete`, { key: KEYS.alice }));
    expect(rest.lambda_params.batch_size).toBe(100);
    await runTask(t.engine, "alpha", rest.notification_uri.split("/")[3], { registry: serverTaskRegistry });
    expect(await Promise.all([0, 1, 2, 3, 4].map(state))).toEqual(["deleted", "deleted", "deleted", "deleted", "updated"]);
  });

  run("fieldsets: save, list by resource, get, delete by path and by query; locked 409; no fields 400; deleted 404", async () => {
    const t = await setup();
    await t.engine.create("alpha", "booking", { title: "Gala", start_date: "2026-02-01", capacity: 5, venue_ref: "/alpha/organisation/ffffffffffffffffffffffff/" });
    const bad: [unknown, RegExp][] = [
      [{}, /fields/],
      [{ name: "x", fields: [] }, /fields/],
      [{ fields: ["a"], resource: "spaceship" }, /spaceship/],
      [{ fields: ["a"], applicable_resources: ["person", "spaceship"] }, /spaceship/],
      [{ fields: [{ x: 1 }] }, /fields/],
      [{ fields: ["a"], name: 4 }, /name/],
    ];
    for (const [body, why] of bad) await expectError(await t.call("POST", `${S}/fieldset`, { key: KEYS.alice, json: body }), 400, why);
    expect(await allOf(t, "fieldset")).toEqual([]);

    const made = await t.call("POST", `${S}/fieldset`, { key: KEYS.alice, json: { name: "Contact", fields: ["first_name", "email", "adult"], applicable_resources: ["person"] } });
    expect(made.status).toBe(201);
    const one = await json(made);
    expect(one).toMatchObject({ name: "Contact", description: "Field list", fields: ["first_name", "email", "adult"], applicable_resources: ["person"], active: true, locked: false, record_state: "updated" });
    expect(one.field_display).toEqual([{ field: "first_name", type: "text" }, { field: "email", type: "list" }, { field: "adult", type: "boolean" }]);
    const fromPerson = await json(await t.call("POST", `${S}/fieldset?resource=person`, { key: KEYS.alice }));
    expect(fromPerson).toMatchObject({ name: "Field list based on person", description: "Field list based on person", applicable_resources: ["person"] });
    expect(fromPerson.fields).toContain("date_of_birth");
    const fromBooking = await json(await t.call("POST", `${S}/fieldset`, { key: KEYS.alice, body: new URLSearchParams({ resource: "booking" }), headers: { "content-type": "application/x-www-form-urlencoded" } }));
    expect(fromBooking.fields).toEqual(["title", "start_date", "capacity", "venue_ref"]);
    expect(fromBooking.field_display.map((f: any) => f.type)).toEqual(["text", "date", "number", "reference"]);
    const everywhere = await json(await t.call("POST", `${S}/fieldset?fields=a,b`, { key: KEYS.alice }));
    expect(everywhere).toMatchObject({ fields: ["a", "b"], applicable_resources: [] });

    const list = async (q = "") => (await json(await t.call("GET", `${S}/fieldset${q}`, { key: KEYS.alice }))).fieldsets.map((f: any) => f.uid);
    expect(await list()).toEqual([one.uid, fromPerson.uid, fromBooking.uid, everywhere.uid]);
    expect(await list("?resource=booking")).toEqual([fromBooking.uid, everywhere.uid]);
    expect(await json(await t.call("GET", `${S}/fieldset/${one.uid}`, { key: KEYS.alice }))).toEqual(one);

    const locked = (await t.engine.create("alpha", "fieldset", { name: "L", fields: ["x"], locked: true })).id;
    await expectError(await t.call("DELETE", `${S}/fieldset/${locked}`, { key: KEYS.alice }), 409, /locked/);
    await expectError(await t.call("DELETE", `${S}/fieldset?uid=${locked}`, { key: KEYS.alice }), 409, /locked/);
    expect((await t.storage.getRecord("alpha", "fieldset", locked))!.state).toBe("updated");
    await expectError(await t.call("DELETE", `${S}/fieldset`, { key: KEYS.alice }), 400, /uid/);

    const del = await t.call("DELETE", `${S}/fieldset/${one.uid}`, { key: KEYS.alice });
    expect(del.status).toBe(200);
    expect(await json(del)).toMatchObject({ uid: one.uid, record_state: "deleted" });
    expect((await json(await t.call("DELETE", `${S}/fieldset?uid=${fromPerson.uid}`, { key: KEYS.alice }))).record_state).toBe("deleted");
    for (const uid of [one.uid, fromPerson.uid, "f".repeat(24)]) {
      await expectError(await t.call("GET", `${S}/fieldset/${uid}`, { key: KEYS.alice }), 404);
      await expectError(await t.call("DELETE", `${S}/fieldset/${uid}`, { key: KEYS.alice }), 404);
    }
    expect(await list()).toEqual([fromBooking.uid, everywhere.uid, locked]);
  });

  run("all/pdf, all/sync_mailchimp and action/replace answer 501 in the v2 error shape after auth", async () => {
    const t = await setup();
    const id = await seg(t, { name: "Web", resource_type: "person" });
    for (const [m, p] of [["GET", "all/pdf?template=x"], ["GET", "all/sync_mailchimp"], ["POST", "action/replace"]] as const) {
      const body = await expectError(await t.call(m, `${S}/segment/${id}/${p}`, { key: KEYS.alice }), 501);
      expect(body.type).toBe("not_implemented");
      await expectError(await t.call(m, `${S}/segment/${id}/${p}`, { key: KEYS.bob }), 403);
    }
  });
});
