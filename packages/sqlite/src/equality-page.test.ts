/**
 * The equality page (compileEqualityPage) and the count from `record_values` alone answer
 * what the general statements answer, in the cases they special-case: one record holding
 * the same text under two kinds comes once, deleted records are left out or shown as asked.
 */
import { parseListQuery, type StoredRecord } from "@records-service/core";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";

const storage = createSqliteStorage({ path: ":memory:" });
afterAll(() => storage.close());

const record = (n: number, data: Record<string, unknown>, state: StoredRecord["state"] = "updated"): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "demo",
  type: "thing",
  state,
  data,
  displayValue: "",
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

await storage.apply({
  records: [
    record(1, { tags: ["1", 1, true, "true"] }),
    record(2, { tags: [1] }),
    record(3, { tags: ["1"] }, "deleted"),
    record(4, { tags: ["2"] }),
    record(5, { tags: ["1", 1] }),
  ].map((r) => ({ kind: "insert" as const, record: r })),
});

const list = (qs: string) =>
  storage.listRecords("demo", "thing", parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") }));
const ids = (page: { records: StoredRecord[] }) => page.records.map((r) => Number.parseInt(r.id, 16));

describe("equality pages and counts", () => {
  it("give a record with the same text under two kinds once", async () => {
    const page = await list("tags=1");
    expect(ids(page)).toEqual([1, 2, 5]);
    expect(page.total).toBe(3);
    expect(ids(await list("tags=true"))).toEqual([1]);
  });

  it("show deleted records only when asked", async () => {
    const all = await list("tags=1&include_deleted=Y");
    expect([ids(all), all.total]).toEqual([[1, 2, 3, 5], 4]);
    const deleted = await list("tags=1&include_deleted=Y&state=deleted");
    expect([ids(deleted), deleted.total]).toEqual([[3], 1]);
  });

  it("page from either end", async () => {
    expect(ids(await list("tags=1&page_size=2&page=1"))).toEqual([1, 2]);
    const last = await list("tags=1&page_size=2&page=2");
    expect([ids(last), last.total]).toEqual([[5], 3]);
  });
});
