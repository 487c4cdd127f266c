import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "../memory/memory.js";
import { createRecordEngine } from "../records/engine.js";
import { INDEX_DEMAND_DEFAULTS, noteScannedFields } from "./demand.js";

const opts = { ...INDEX_DEMAND_DEFAULTS, earnAfter: 3, minRecords: 10 };

async function setup() {
  const storage = createMemoryStorage();
  await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
  return { storage, engine: createRecordEngine({ storage }) };
}

describe("demand", () => {
  it("asks for a field's index at the earnAfter-th scan of a large enough collection, once", async () => {
    const { storage } = await setup();
    const note = (collection: number) => noteScannedFields(storage, 0, "demo", "membership", { fields: ["level"], collection }, opts);
    expect(await note(9)).toEqual([]); // too small: never counts
    expect(await note(10)).toEqual([]);
    expect(await note(10)).toEqual([]);
    expect(await note(10)).toEqual(["level"]);
    expect(await storage.listFieldIndexes("demo", "membership")).toEqual([{ flock: "demo", type: "membership", field: "level", state: "building", source: "demand", progress: 0 }]);
    for (let i = 0; i < 3; i++) await note(10);
    expect((await storage.listFieldIndexes("demo")).length).toBe(1);
  });

  it("lets a field whose name is too long for a plain demand key earn its index too (hashed key)", async () => {
    const { storage } = await setup();
    const long = `f${"x".repeat(299)}`;
    const other = `f${"x".repeat(298)}y`;
    const note = (field: string) => noteScannedFields(storage, 0, "demo", "membership", { fields: [field], collection: 10 }, opts);
    expect(await note(long)).toEqual([]);
    expect(await note(other)).toEqual([]); // counted apart
    expect(await note(long)).toEqual([]);
    expect(await note(long)).toEqual([long]);
    expect((await storage.listFieldIndexes("demo", "membership")).map((r) => [r.field, r.source])).toEqual([[long, "demand"]]);
  });

  it("leaves an operator's drop standing", async () => {
    const { storage, engine } = await setup();
    await engine.indexes.drop("demo", "membership", "level");
    for (let i = 0; i < 6; i++) expect(await noteScannedFields(storage, 0, "demo", "membership", { fields: ["level"], collection: 50 }, opts)).toEqual([]);
    expect((await storage.listFieldIndexes("demo"))[0]).toMatchObject({ state: "dropped", source: "operator" });
  });
});

describe("engine.indexes", () => {
  it("lists the defaults and the rows, adds, drops, refuses engine fields and bad names, resets", async () => {
    const { engine, storage } = await setup();
    const views = await engine.indexes.list("demo");
    expect(views.find((v) => v.type === "person" && v.field === "last_name")).toEqual({ type: "person", field: "last_name", status: "declared", source: "default", flock: "demo", progress: 1 });
    expect(await engine.indexes.add("demo", "membership", "level")).toMatchObject({ status: "building", source: "operator", progress: 0 });
    await storage.stepFieldIndexes(10);
    expect((await engine.indexes.list("demo")).find((v) => v.field === "level")).toMatchObject({ status: "declared", progress: 1 });
    expect(await engine.indexes.drop("demo", "person", "last_name")).toMatchObject({ status: "dropped" });
    await expect(engine.indexes.drop("demo", "person", "tags")).rejects.toMatchObject({ code: "bad_request", message: "index needed" });
    await expect(engine.indexes.add("demo", "person", "9x")).rejects.toMatchObject({ code: "bad_request" });
    await expect(engine.indexes.add("demo", "nosuchtype", "x")).rejects.toMatchObject({ code: "not_found" });
    await expect(engine.indexes.list("nowhere")).rejects.toMatchObject({ code: "not_found" });
    // A dropped default is built again before reads trust it; a ready row then goes back to the defaults.
    expect(await engine.indexes.reset("demo", "person", "last_name")).toBe(true);
    expect((await engine.indexes.list("demo")).find((v) => v.field === "last_name")).toMatchObject({ status: "building", source: "default" });
    await storage.stepFieldIndexes(10);
    expect((await storage.listFieldIndexes("demo", "person")).some((r) => r.field === "last_name")).toBe(false);
    expect((await engine.indexes.list("demo")).find((v) => v.field === "last_name")).toMatchObject({ status: "declared", source: "default" });
  });

  it("applies config rows for every flock and takes back the ones no longer named", async () => {
    const { engine, storage } = await setup();
    expect(await engine.indexes.applyConfig({ membership: ["level", "colour"], person: ["last_name"] })).toBe(2); // last_name is a default already
    expect(await engine.indexes.applyConfig({ membership: ["level", "colour"] })).toBe(0);
    expect(await engine.indexes.applyConfig({ membership: ["level"] })).toBe(1);
    expect((await storage.listFieldIndexes("demo")).map((r) => [r.flock, r.type, r.field, r.source])).toEqual([["*", "membership", "level", "config"]]);
  });
});
