/**
 * `groupCount` by period asks the storage to cut before it groups: 200,000 records created in
 * one year are counted from twelve rows, within `MAX_AGGREGATE_RECORDS` (the bound is on the
 * rows read), while a count by the whole timestamp (one row per record) is still refused.
 */
import { describe, expect, it, vi } from "vitest";
import { createMemoryStorage } from "../memory/memory.js";
import { F1, insertAll, rec, seedFlocks } from "../testing/fixtures.js";
import type { EngineContext } from "../records/types.js";
import type { StoredRecord } from "../model/record.js";
import { groupCount } from "./group.js";
import { MAX_AGGREGATE_RECORDS } from "./scan-each.js";

const N = 200_000;
const YEAR_START = Date.UTC(2025, 0, 1);
const YEAR_MS = 365 * 86_400_000;

/** Record `i` of N, created at its own moment of 2025 (every timestamp differs). */
function _person(i: number): StoredRecord {
  const created = new Date(YEAR_START + Math.floor((i * YEAR_MS) / N)).toISOString().replace("Z", "000");
  return { ...rec(i + 1, { tags: i % 2 ? ["2025-06-01", "vip"] : [] }), created, lastUpdated: created };
}

describe("groupCount by period", () => {
  it("counts 200,000 records created in one year by month from at most 12 rows, and refuses the uncut count", async () => {
    const storage = createMemoryStorage();
    await seedFlocks(storage);
    for (let from = 0; from < N; from += 10_000) await insertAll(storage, Array.from({ length: 10_000 }, (_, k) => _person(from + k)));
    const ctx = { storage, typesOf: () => new Set(["thing"]) } as unknown as EngineContext;
    const count = vi.spyOn(storage, "countFieldValues");

    const byMonth = await groupCount(ctx, F1, "thing", "created", { filters: [], mode: "AND", states: ["updated"] }, "month");
    expect(byMonth.groups).toBe(12);
    expect(byMonth.results.reduce((n, g) => n + g.count, 0)).toBe(N);
    expect(byMonth.results.map((g) => g.value).sort()).toEqual(Array.from({ length: 12 }, (_, m) => `2025-${String(m + 1).padStart(2, "0")}`));
    // The storage was asked for the month cut and gave one row per month.
    expect(count.mock.calls[0]![4]).toEqual([7]);
    expect(await count.mock.results[0]!.value).toHaveLength(12);

    expect(await groupCount(ctx, F1, "thing", "tags", { filters: [], mode: "AND", states: ["updated"] }, "year")).toEqual({
      results: [
        { value: null, count: N / 2 },
        { value: "2025", count: N / 2 },
        { value: "vip", count: N / 2 },
      ],
      groups: 3,
    });

    expect(N).toBeGreaterThan(MAX_AGGREGATE_RECORDS);
    await expect(groupCount(ctx, F1, "thing", "created", { filters: [], mode: "AND", states: ["updated"] })).rejects.toMatchObject({ code: "bad_request", message: "too many records" });
  }, 120_000);
});
