import { describe, expect, it } from "vitest";
import { PERSON_FIELDS } from "../schema/person.js";
import { createMemoryStorage } from "../memory/memory.js";
import type { StoredRecord } from "../model/record.js";
import type { Storage } from "../storage/storage.js";
import { WRITE_REPLANS } from "./replan.js";
import { updateWrite } from "./revise.js";
import { createRecordEngine } from "./engine.js";
import { rejection, setup, START_TS } from "./test-helpers.js";

describe("create", () => {
  it("creates a person with every field, derived names and display value", async () => {
    const { engine, storage } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    expect(r).toMatchObject({
      id: "000000000000000000000001",
      flock: "demo",
      type: "person",
      state: "updated",
      displayValue: "Ada Lovelace",
      created: START_TS,
      lastUpdated: START_TS,
      version: 1,
    });
    expect(Object.keys(r.data).sort()).toEqual(Object.keys(PERSON_FIELDS).sort());
    expect(r.data).toMatchObject({ formatted_name: "Ada Lovelace", salutation: "Ada", sortable_name: "lovelace, ada", hide_from_views: false, email: null });
    expect(await storage.getRecord("demo", "person", r.id)).toEqual(r);
  });

  it("createMany stores every body in one commit, with a data event each, or none when one is refused", async () => {
    const { engine, storage } = await setup();
    const made = await engine.createMany("demo", "person", [{ first_name: "Ada" }, { first_name: "Grace" }]);
    expect(made.map((r) => r.displayValue)).toEqual(["Ada", "Grace"]);
    for (const r of made) expect((await storage.getRecord("demo", "person", r.id))?.data.first_name).toBe(r.data.first_name);
    const events = await engine.list("demo", "data_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 50 });
    expect(events.records.filter((e) => e.data.name === "contact_created")).toHaveLength(2);
    const before = await engine.list("demo", "person", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 50 });
    await expect(engine.createMany("demo", "person", [{ first_name: "Edsger" }, { first_name: 42 }])).rejects.toMatchObject({ code: "bad_request" });
    const after = await engine.list("demo", "person", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 50 });
    expect(after.total).toBe(before.total);
  });

  it("creates an empty person", async () => {
    const { engine } = await setup();
    expect((await engine.create("demo", "person", {})).displayValue).toBe("an empty person");
  });

  it("creates an open-type record as given, references stored as URIs", async () => {
    const { engine } = await setup();
    const ada = await engine.create("demo", "person", { first_name: "Ada" });
    const uri = `/demo/person/${ada.id}/`;
    const j = await engine.create("demo", "journal", { subject: "Call", contact_ref: { display_value: "Ada", ref: uri }, n: 3 });
    expect(j.data).toEqual({ subject: "Call", contact_ref: uri, n: 3 });
    expect(j.displayValue).toBe("Call");
  });

  it("serves extra resource types", async () => {
    const storage = createMemoryStorage();
    await storage.createFlock({ identifier: "demo", name: "Demo", created: START_TS });
    const engine = createRecordEngine({ storage, extraResourceTypes: ["volunteer"] });
    const r = await engine.create("demo", "volunteer", { name: "Ada" });
    expect(r.id).toMatch(/^[0-9a-f]{24}$/);
    expect(r.displayValue).toBe("Ada");
  });

  it.each([
    { name: "unknown flock", flock: "nope", type: "person", body: {}, code: "not_found", message: "unknown flock" },
    { name: "unknown type", flock: "demo", type: "widget", body: {}, code: "not_found", message: "unknown resource type" },
    { name: "bulk_action", flock: "demo", type: "bulk_action", body: {}, code: "not_found", message: "unknown resource type" },
    { name: "unknown person field", flock: "demo", type: "person", body: { shoe: 1 }, code: "bad_request", message: "unknown fields" },
    { name: "system field", flock: "demo", type: "person", body: { formatted_name: "x" }, code: "bad_request", message: "system-generated field" },
    { name: "wrong kind", flock: "demo", type: "person", body: { deceased: "no" }, code: "bad_request", message: "invalid field value" },
    { name: "bad field name", flock: "demo", type: "journal", body: { "a-b": 1 }, code: "bad_request", message: "invalid field name" },
    { name: "array body", flock: "demo", type: "journal", body: [1], code: "bad_request", message: "invalid body" },
  ])("refuses: $name", async ({ flock, type, body, code, message }) => {
    const { engine, storage } = await setup();
    const e = await rejection(engine.create(flock, type, body as Record<string, unknown>));
    expect(e).toMatchObject({ code, message });
    expect(await storage.summarizeTypes("demo")).toEqual([]);
  });

  it("reports a duplicate id from the id source as a conflict", async () => {
    const storage = createMemoryStorage();
    await storage.createFlock({ identifier: "demo", name: "Demo", created: START_TS });
    const engine = createRecordEngine({ storage, ids: () => "000000000000000000000001" });
    await engine.create("demo", "journal", {});
    expect(await rejection(engine.create("demo", "journal", {}))).toMatchObject({ code: "conflict" });
  });
});

describe("get and list", () => {
  it("gets a record in any state", async () => {
    const { engine } = await setup();
    const r = await engine.create("demo", "journal", { subject: "x" });
    await engine.delete("demo", "journal", r.id);
    expect((await engine.get("demo", "journal", r.id)).state).toBe("deleted");
  });

  it("lists through storage", async () => {
    const { engine } = await setup();
    for (const subject of ["a", "b", "c"]) await engine.create("demo", "journal", { subject });
    await engine.create("other", "journal", { subject: "a" });
    const page = await engine.list("demo", "journal", {
      filters: [{ field: "subject", meta: false, op: "ne", values: [{ text: "b" }] }],
      mode: "AND",
      states: ["updated"],
      page: 1,
      pageSize: 25,
    });
    expect(page.total).toBe(2);
    expect(page.records.map((r) => r.data.subject)).toEqual(["a", "c"]);
  });

  it.each([
    { name: "unknown flock", flock: "nope", type: "journal", message: "unknown flock" },
    { name: "unknown type", flock: "demo", type: "widget", message: "unknown resource type" },
  ])("list refuses $name", async ({ flock, type, message }) => {
    const { engine } = await setup();
    const q = { filters: [], mode: "AND" as const, states: ["updated" as const], page: 1, pageSize: 25 };
    expect(await rejection(engine.list(flock, type, q))).toMatchObject({ code: "not_found", message });
  });
});

describe("update", () => {
  it("returns only the changed fields, generated ones included", async () => {
    const { engine, clock } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada", last_name: "Byron", title: "Miss" });
    clock.advance(60_000);
    const { record, changed } = await engine.update("demo", "person", r.id, { last_name: "Lovelace", first_name: "Ada", title: "Miss" });
    expect(changed).toEqual({
      last_name: "Lovelace",
      formatted_name: "Miss Ada Lovelace",
      salutation: "Miss Lovelace",
      sortable_name: "lovelace, ada",
    });
    expect(record).toMatchObject({ version: 2, lastUpdated: "2026-01-15T10:01:00.000000", created: START_TS, displayValue: "Miss Ada Lovelace" });
  });

  it("sets fields to null and reports them", async () => {
    const { engine } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada", tags: ["a"] });
    const { changed } = await engine.update("demo", "person", r.id, { tags: null });
    expect(changed).toEqual({ tags: null });
  });

  it("an empty or no-op patch writes nothing and returns {}", async () => {
    const { engine, storage, clock } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada" });
    clock.advance(1000);
    expect(await engine.update("demo", "person", r.id, {})).toEqual({ record: r, changed: {} });
    expect(await engine.update("demo", "person", r.id, { first_name: "Ada", tags: [] })).toEqual({ record: r, changed: {} });
    expect(await storage.getRecord("demo", "person", r.id)).toEqual(r);
  });

  it("merges open-type fields and recomputes the display value", async () => {
    const { engine } = await setup();
    const r = await engine.create("demo", "journal", { subject: "Call", body: "x" });
    const { record, changed } = await engine.update("demo", "journal", r.id, { name: "Named", body: "x" });
    expect(changed).toEqual({ name: "Named" });
    expect(record.data).toEqual({ subject: "Call", body: "x", name: "Named" });
    expect(record.displayValue).toBe("Named");
  });

  it("compares nested values by content", async () => {
    const { engine } = await setup();
    const r = await engine.create("demo", "journal", { meta: { a: 1, b: [1, 2] } });
    expect((await engine.update("demo", "journal", r.id, { meta: { b: [1, 2], a: 1 } })).changed).toEqual({});
    expect((await engine.update("demo", "journal", r.id, { meta: { a: 1, b: [2, 1] } })).changed).toEqual({ meta: { a: 1, b: [2, 1] } });
  });

  it("refuses a deleted record with 409", async () => {
    const { engine } = await setup();
    const r = await engine.create("demo", "journal", {});
    await engine.delete("demo", "journal", r.id);
    expect(await rejection(engine.update("demo", "journal", r.id, { a: 1 }))).toMatchObject({
      code: "conflict",
      message: "cannot update a deleted record",
    });
  });

  it("refuses bad fields and stores nothing", async () => {
    const { engine, storage } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada" });
    expect(await rejection(engine.update("demo", "person", r.id, { first_name: 1 }))).toMatchObject({ code: "bad_request" });
    expect(await rejection(engine.update("demo", "person", r.id, { salutation: "Hi" }))).toMatchObject({
      message: "system-generated field",
    });
    expect(await storage.getRecord("demo", "person", r.id)).toEqual(r);
  });

  it("plans again when the record changed between read and commit: both writers' fields are kept", async () => {
    const { inner, racing, interfere } = _racing((r) => ({ ...r.data, y: "theirs" }));
    const { engine } = await setup(racing);
    const r = await engine.create("demo", "journal", { x: "start" });
    interfere(1);
    const { record, changed } = await engine.update("demo", "journal", r.id, { x: "mine" });
    expect(changed).toEqual({ x: "mine" });
    expect(record.version).toBe(3);
    expect((await inner.getRecord("demo", "journal", r.id))?.data).toEqual({ x: "mine", y: "theirs" });
    // The feed logs the write planned on the new version: the field it changed, as answered.
    expect((await inner.readChanges("demo", 0, 10)).changes.map((c) => [c.version, c.fields])).toEqual([
      [1, ["x"]],
      [2, ["y"]],
      [3, ["x"]],
    ]);
  });

  it("plans delete, restore, touch and obfuscate again too", async () => {
    const { inner, racing, interfere } = _racing((r) => ({ ...r.data, y: "theirs" }));
    const { engine } = await setup(racing);
    const r = await engine.create("demo", "journal", { x: "start" });
    interfere(1);
    expect((await engine.delete("demo", "journal", r.id)).version).toBe(3);
    interfere(1);
    expect((await engine.restore("demo", "journal", r.id)).version).toBe(5);
    interfere(1);
    expect((await engine.touch("demo", "journal", r.id)).version).toBe(7);
    expect((await inner.getRecord("demo", "journal", r.id))?.state).toBe("updated");
  });

  it("is a 409 after WRITE_REPLANS plans that all lost the race, and writes nothing of its own", async () => {
    const { inner, racing, interfere } = _racing((r) => ({ ...r.data, y: r.version }));
    const { engine } = await setup(racing);
    const r = await engine.create("demo", "journal", { x: "start" });
    interfere(WRITE_REPLANS + 1);
    expect(await rejection(engine.update("demo", "journal", r.id, { x: "mine" }))).toMatchObject({ code: "conflict" });
    expect((await inner.getRecord("demo", "journal", r.id))?.data.x).toBe("start");
  });

  it("answers a state change refused on the record as it now is with 409 (deleted meanwhile)", async () => {
    const inner = createMemoryStorage();
    let interfere = false;
    const racing: Storage = {
      ...inner,
      async getRecord(flock, type, id) {
        const r = await inner.getRecord(flock, type, id);
        if (r && interfere) {
          interfere = false;
          await inner.apply({ records: [updateWrite(r, { ...r, state: "deleted", version: r.version + 1 })] });
        }
        return r;
      },
    };
    const { engine } = await setup(racing);
    const r = await engine.create("demo", "journal", { x: "start" });
    interfere = true;
    expect(await rejection(engine.update("demo", "journal", r.id, { x: "mine" }))).toMatchObject({
      code: "conflict",
      message: "cannot update a deleted record",
    });
    expect((await inner.getRecord("demo", "journal", r.id))?.data).toEqual({ x: "start" });
  });

  it("computes the changed fields once: the answer and the change feed name the same ones", async () => {
    const { engine, storage } = await setup();
    const r = await engine.create("demo", "journal", { a: { x: 1, y: 2 }, n: 1 });
    const { changed } = await engine.update("demo", "journal", r.id, { a: { y: 2, x: 1 }, n: 2 });
    expect(changed).toEqual({ n: 2 });
    const feed = (await storage.readChanges("demo", 0, 10)).changes;
    expect(feed.map((c) => c.fields)).toEqual([["a", "n"], ["n"]]);
  });
});

/**
 * A memory Storage whose `getRecord` lets another writer change the record (its data
 * replaced by `change`) just after each of the next `n` reads, as a concurrent PUT would.
 */
function _racing(change: (r: StoredRecord) => Record<string, unknown>) {
  const inner = createMemoryStorage();
  let left = 0;
  const racing: Storage = {
    ...inner,
    async getRecord(flock, type, id) {
      const r = await inner.getRecord(flock, type, id);
      if (r && left > 0) {
        left -= 1;
        await inner.apply({ records: [updateWrite(r, { ...r, data: change(r), version: r.version + 1 })] });
      }
      return r;
    },
  };
  return { inner, racing, interfere: (n: number) => void (left = n) };
}
