/**
 * `listAllSorted` reads page after page in the sort's order until a short page: every
 * match once, across page cuts, whatever the step.
 */
import { createMemoryStorage, parseListQuery, type StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { listAllSorted } from "./record-table.js";

const rec = (n: number, name: string): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "f",
  type: "person",
  state: "updated",
  data: { last_name: name },
  displayValue: name,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

describe("listAllSorted", () => {
  it.each([1, 3, 7, 10, 100])("gives every match once in sort order with pages of %i", async (step) => {
    const storage = createMemoryStorage();
    const names = ["m", "c", "x", "a", "q", "b", "z", "k", "d", "y"];
    await storage.apply({ records: names.map((name, i) => ({ kind: "insert" as const, record: rec(i + 1, name) })) });
    const { filters, mode, states, sort } = parseListQuery(new URLSearchParams("sort=-last_name"), { surface: "v1", now: new Date() });
    const got: string[] = [];
    for await (const r of listAllSorted(storage, "f", "person", { filters, mode, states }, sort!, step)) got.push(r.data.last_name as string);
    expect(got).toEqual([...names].sort().reverse());
  });
});
