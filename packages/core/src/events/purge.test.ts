import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "../memory/memory.js";
import type { StoredRecord } from "../model/record.js";
import { purgeExpiredEvents } from "./purge.js";

const event = (n: number, flock: string, expires_at: unknown, state: "updated" | "deleted" = "updated"): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock,
  type: "data_event",
  state,
  data: { name: "login", expires_at },
  displayValue: "",
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

async function seeded() {
  const storage = createMemoryStorage();
  for (const identifier of ["a", "b"]) await storage.createFlock({ identifier, name: identifier, created: "2026-01-01T00:00:00.000000" });
  await storage.apply({
    records: [
      event(1, "a", "2026-03-01T00:00:00.000000"),
      event(2, "a", "2026-03-01", "deleted"), // a date means 00:00 UTC; deleted ones expire too
      event(3, "a", "2026-03-01T00:00:00.000001"), // one microsecond later: not yet
      event(4, "a", "soon"), // unreadable: never
      event(5, "a", null),
      event(6, "b", "2025-12-31T23:59:59.000000"),
    ].map((record) => ({ kind: "insert" as const, record })),
  });
  return storage;
}

const ids = async (storage: ReturnType<typeof createMemoryStorage>, flock: string) =>
  (await storage.listRecords(flock, "data_event", { filters: [], mode: "AND", states: ["updated", "deleted"], page: 1, pageSize: 100 })).records.map((r) =>
    Number.parseInt(r.id, 16),
  );

describe("purgeExpiredEvents", () => {
  it("removes the expired events of every flock, deleted ones included", async () => {
    const storage = await seeded();
    expect(await purgeExpiredEvents(storage, new Date("2026-03-01T00:00:00.000Z"))).toBe(3);
    expect(await ids(storage, "a")).toEqual([3, 4, 5]);
    expect(await ids(storage, "b")).toEqual([]);
  });

  it("removes at most `limit`; called again it goes on", async () => {
    const storage = await seeded();
    const now = new Date("2026-03-02T00:00:00.000Z");
    expect(await purgeExpiredEvents(storage, now, { limit: 2 })).toBe(2);
    expect(await purgeExpiredEvents(storage, now, { limit: 2 })).toBe(2);
    expect(await purgeExpiredEvents(storage, now, { limit: 2 })).toBe(0);
    expect(await ids(storage, "a")).toEqual([4, 5]);
  });

  it("one flock only, when asked", async () => {
    const storage = await seeded();
    expect(await purgeExpiredEvents(storage, new Date("2026-03-02T00:00:00.000Z"), { flock: "b" })).toBe(1);
    expect(await ids(storage, "a")).toEqual([1, 2, 3, 4, 5]);
  });
});
