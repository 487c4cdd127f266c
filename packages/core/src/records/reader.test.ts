import { describe, expect, it } from "vitest";
import type { ScanQuery } from "../storage/record-store.js";
import { rejection, setup } from "./test-helpers.js";

const ALL: ScanQuery = { filters: [], mode: "AND", states: ["updated"] };

describe("engine.read", () => {
  it("answers as the record store does, for the flock's records only", async () => {
    const { engine, storage } = await setup();
    const ada = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
    await engine.create("other", "person", { first_name: "Grace" });
    expect(await engine.read.getRecord("demo", "person", ada.id)).toEqual(ada);
    expect(await engine.read.getRecord("demo", "person", "0".repeat(24))).toBeUndefined();
    expect(await engine.read.getRecords("demo", [{ type: "person", id: ada.id }])).toEqual([ada]);
    expect(await engine.read.getRecords("demo", [])).toEqual([]);
    expect((await engine.read.scanRecords("demo", "person", ALL, null, 10)).records).toEqual([ada]);
    expect((await engine.read.listRecords("demo", "person", { ...ALL, page: 1, pageSize: 10 })).total).toBe(1);
    expect(await engine.read.listFieldValues("demo", "person", ALL, ["first_name"], 10)).toEqual([{ id: ada.id, values: ["Ada"] }]);
    expect(await engine.read.countFieldValues("demo", "person", ALL, ["first_name"])).toEqual([{ values: ["Ada"], count: 1 }]);
    expect(await engine.read.summarizeTypes("demo")).toEqual(await storage.summarizeTypes("demo"));
    expect(await engine.read.listTicketStock("demo", [])).toEqual([]);
    expect(await engine.read.getDisplayValues("demo", [{ type: "person", id: ada.id }])).toEqual([{ type: "person", id: ada.id, displayValue: ada.displayValue }]);
  });

  it.each([
    { name: "getRecord", read: (e: Awaited<ReturnType<typeof setup>>["engine"]) => e.read.getRecord("nowhere", "person", "0".repeat(24)), title: "unknown flock" },
    { name: "getRecords", read: (e: Awaited<ReturnType<typeof setup>>["engine"]) => e.read.getRecords("nowhere", [{ type: "person", id: "0".repeat(24) }]), title: "unknown flock" },
    { name: "summarizeTypes", read: (e: Awaited<ReturnType<typeof setup>>["engine"]) => e.read.summarizeTypes("nowhere"), title: "unknown flock" },
    { name: "listTicketStock", read: (e: Awaited<ReturnType<typeof setup>>["engine"]) => e.read.listTicketStock("nowhere", ["/nowhere/booking/x/"]), title: "unknown flock" },
    { name: "getFile", read: (e: Awaited<ReturnType<typeof setup>>["engine"]) => e.read.getFile("nowhere", "x"), title: "unknown flock" },
    { name: "scanRecords of a type not served", read: (e: Awaited<ReturnType<typeof setup>>["engine"]) => e.read.scanRecords("demo", "widget", ALL, null, 10), title: "unknown resource type" },
    { name: "listFieldValues of a type not served", read: (e: Awaited<ReturnType<typeof setup>>["engine"]) => e.read.listFieldValues("demo", "widget", ALL, ["a"], 10), title: "unknown resource type" },
  ])("$name: a 404 where get and list would give one", async ({ read, title }) => {
    const { engine } = await setup();
    const e = await rejection(read(engine));
    expect([e.code, e.message]).toEqual(["not_found", title]);
  });

  it("has no member that writes", async () => {
    const { engine } = await setup();
    expect(Object.keys(engine.read).sort()).toEqual(
      ["countFieldValues", "getDisplayValues", "getFile", "getRecord", "getRecords", "listFieldValues", "listRecords", "listReferencing", "listTicketStock", "scanRecords", "summarizeTypes"],
    );
  });
});
