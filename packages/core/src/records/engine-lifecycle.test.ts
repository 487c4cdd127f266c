import { describe, expect, it } from "vitest";
import { newPersonData } from "../schema/person.js";
import type { StoredRecord } from "../model/record.js";
import type { Storage } from "../storage/storage.js";
import type { RecordEngine } from "./types.js";
import { updateWrite } from "./revise.js";
import { rejection, setup, START_TS } from "./test-helpers.js";

type Op = (e: RecordEngine, flock: string, type: string, id: string) => Promise<unknown>;

const OPS: Record<string, Op> = {
  get: (e, f, t, i) => e.get(f, t, i),
  update: (e, f, t, i) => e.update(f, t, i, { a: 1 }),
  delete: (e, f, t, i) => e.delete(f, t, i),
  restore: (e, f, t, i) => e.restore(f, t, i),
  obfuscate: (e, f, t, i) => e.obfuscate(f, t, i),
  touch: (e, f, t, i) => e.touch(f, t, i),
  recalc: (e, f, t, i) => e.recalc(f, t, i),
  attachFiles: (e, f, t, i) => e.attachFiles(f, t, i, [{ field: "files", filename: "a", contentType: "text/plain", bytes: new Uint8Array(1) }]),
};

describe("every operation on one record checks flock, type and id", () => {
  const cases = Object.keys(OPS).flatMap((op) => [
    { op, name: "unknown flock", flock: "nope", type: "journal", id: undefined, message: "unknown flock" },
    { op, name: "unknown type", flock: "demo", type: "widget", id: undefined, message: "unknown resource type" },
    { op, name: "malformed id", flock: "demo", type: "journal", id: "xyz", message: "record not found" },
    { op, name: "upper-case id", flock: "demo", type: "journal", id: "00000000000000000000000A", message: "record not found" },
    { op, name: "missing id", flock: "demo", type: "journal", id: "0000000000000000000000ff", message: "record not found" },
    { op, name: "record of another flock", flock: "other", type: "journal", id: undefined, message: "record not found" },
    { op, name: "record of another type", flock: "demo", type: "booking", id: undefined, message: "record not found" },
  ]);
  it.each(cases)("$op: $name is 404", async ({ op, flock, type, id, message }) => {
    const { engine } = await setup();
    const r = await engine.create("demo", "journal", { subject: "x" });
    const e = await rejection(OPS[op]!(engine, flock, type, id ?? r.id));
    expect(e).toMatchObject({ code: "not_found", message });
  });
});

describe("delete and restore", () => {
  it("delete moves to deleted, restore back; each bumps version and last_updated", async () => {
    const { engine, clock } = await setup();
    const r = await engine.create("demo", "journal", { subject: "x" });
    clock.advance(1000);
    const d = await engine.delete("demo", "journal", r.id);
    expect(d).toMatchObject({ state: "deleted", version: 2, lastUpdated: "2026-01-15T10:00:01.000000", data: r.data });
    clock.advance(1000);
    const back = await engine.restore("demo", "journal", r.id);
    expect(back).toMatchObject({ state: "updated", version: 3, lastUpdated: "2026-01-15T10:00:02.000000", created: START_TS });
  });

  it.each([
    { name: "delete twice", steps: ["delete", "delete"], message: "cannot delete a deleted record" },
    { name: "restore a live record", steps: ["restore"], message: "cannot restore a record that is not deleted" },
    { name: "restore twice", steps: ["delete", "restore", "restore"], message: "cannot restore a record that is not deleted" },
    { name: "touch a deleted record", steps: ["delete", "touch"], message: "cannot touch a deleted record" },
    { name: "attach to a deleted record", steps: ["delete", "attachFiles"], message: "cannot attach files to a deleted record" },
  ])("409: $name", async ({ steps, message }) => {
    const { engine, storage } = await setup();
    const r = await engine.create("demo", "journal", {});
    const last = steps[steps.length - 1]!;
    for (const s of steps.slice(0, -1)) await OPS[s]!(engine, "demo", "journal", r.id);
    const before = await storage.getRecord("demo", "journal", r.id);
    expect(await rejection(OPS[last]!(engine, "demo", "journal", r.id))).toMatchObject({ code: "conflict", message });
    expect(await storage.getRecord("demo", "journal", r.id)).toEqual(before);
  });
});

describe("touch", () => {
  it("moves last_updated and the version only", async () => {
    const { engine, clock } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada" });
    clock.advance(5000);
    const t = await engine.touch("demo", "person", r.id);
    expect(t).toEqual({ ...r, lastUpdated: "2026-01-15T10:00:05.000000", version: 2 });
  });
});

describe("obfuscate", () => {
  it("nulls every person field but hide_from_views; display becomes 'an empty person'", async () => {
    const { engine } = await setup();
    const r = await engine.create("demo", "person", {
      first_name: "Ada",
      last_name: "Lovelace",
      email: ["ada@example.org;home"],
      deceased: true,
      geo: { lat: 1 },
      hide_from_views: true,
      editable_salutation: "Dear Ada",
    });
    const o = await engine.obfuscate("demo", "person", r.id);
    expect(o.data).toEqual(newPersonData({ hide_from_views: true }));
    expect(o.data.formatted_name).toBeNull();
    expect(o).toMatchObject({ displayValue: "an empty person", state: "updated", version: 2, id: r.id, created: r.created });
  });

  it("keeps reference fields of other types and nulls the rest", async () => {
    const { engine } = await setup();
    const p = await engine.create("demo", "person", { first_name: "Ada" });
    const uri = `/demo/person/${p.id}/`;
    const j = await engine.create("demo", "journal", { subject: "Call", contact_ref: uri, people: [uri], mixed: [uri, "x"], n: 3, to: "ada@x.org" });
    const o = await engine.obfuscate("demo", "journal", j.id);
    expect(o.data).toEqual({ subject: null, contact_ref: uri, people: [uri], mixed: null, n: null, to: null });
    expect(o.displayValue).toBe("an empty journal");
  });

  it("works on a deleted record and keeps it deleted", async () => {
    const { engine } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada" });
    await engine.delete("demo", "person", r.id);
    const o = await engine.obfuscate("demo", "person", r.id);
    expect(o).toMatchObject({ state: "deleted", displayValue: "an empty person", version: 3 });
  });

  it("removes the record's files", async () => {
    const { engine, storage } = await setup();
    const r = await engine.create("demo", "journal", {});
    const { files } = await engine.attachFiles("demo", "journal", r.id, [
      { field: "files", filename: "a.txt", contentType: "text/plain", bytes: new Uint8Array([1]) },
    ]);
    expect(await storage.getFile("demo", files[0]!.id)).toBeDefined();
    const o = await engine.obfuscate("demo", "journal", r.id);
    expect(o.data.files).toBeNull();
    expect(await storage.getFile("demo", files[0]!.id)).toBeUndefined();
  });
});

describe("recalc", () => {
  async function stale(storage: Storage, r: StoredRecord, data: Record<string, unknown>, displayValue = "stale") {
    await storage.apply({ records: [updateWrite(r, { ...r, data, displayValue, version: r.version + 1 })] });
    return (await storage.getRecord(r.flock, r.type, r.id))!;
  }

  it("repairs stale derived fields and display value", async () => {
    const { engine, storage, clock } = await setup();
    const r = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    const { hide_from_views: _, ...partial } = r.data;
    await stale(storage, r, { ...partial, formatted_name: "wrong" });
    clock.advance(1000);
    expect(await engine.recalc("demo", "person", r.id)).toEqual({ status: "OK", force: false });
    const fixed = (await storage.getRecord("demo", "person", r.id))!;
    expect(fixed).toMatchObject({ displayValue: "Ada Lovelace", version: 3, lastUpdated: "2026-01-15T10:00:01.000000" });
    expect(fixed.data).toEqual(r.data);
  });

  it("writes nothing when nothing is stale", async () => {
    const { engine, storage } = await setup();
    const r = await engine.create("demo", "journal", { subject: "x" });
    expect(await engine.recalc("demo", "journal", r.id, { force: false })).toEqual({ status: "OK", force: false });
    expect(await storage.getRecord("demo", "journal", r.id)).toEqual(r);
  });

  it("works on deleted records", async () => {
    const { engine, storage } = await setup();
    const r = await engine.create("demo", "journal", { subject: "x" });
    const d = await engine.delete("demo", "journal", r.id);
    await stale(storage, d, d.data);
    await engine.recalc("demo", "journal", r.id);
    expect((await storage.getRecord("demo", "journal", r.id))).toMatchObject({ displayValue: "x", state: "deleted" });
  });

  it("with force also repairs the records that reference it", async () => {
    const { engine, storage } = await setup();
    const p = await engine.create("demo", "person", { first_name: "Ada" });
    const uri = `/demo/person/${p.id}/`;
    const j1 = await engine.create("demo", "journal", { subject: "one", contact_ref: uri });
    const j2 = await engine.create("demo", "booking", { name: "two", people: [`${uri};guest`] });
    const j3 = await engine.create("demo", "journal", { subject: "three" });
    for (const r of [j1, j2, j3]) await stale(storage, r, r.data);
    expect(await engine.recalc("demo", "person", p.id)).toEqual({ status: "OK", force: false });
    expect((await storage.getRecord("demo", "journal", j1.id))?.displayValue).toBe("stale");
    expect(await engine.recalc("demo", "person", p.id, { force: true })).toEqual({ status: "OK", force: true });
    expect((await storage.getRecord("demo", "journal", j1.id))?.displayValue).toBe("one");
    expect((await storage.getRecord("demo", "booking", j2.id))?.displayValue).toBe("two");
    expect((await storage.getRecord("demo", "journal", j3.id))?.displayValue).toBe("stale");
  });
});
