/**
 * The SQLite scan's own concern: the bounded window. With a tiny window, a walk crosses
 * stretches with no match (and rids of other collections) in empty steps, and still
 * visits every match once, in order, with the probe form of every kind of filter.
 */
import { parseListQuery, type StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createCatalog } from "./catalog.js";
import { openDatabase } from "./open.js";
import { createScanner } from "./scan.js";
import { createApplier } from "./write.js";

const rec = (n: number, type: string, data: Record<string, unknown>): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "f1",
  type,
  state: "updated",
  data,
  displayValue: `r${n}`,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

describe("scanRecords with a small window", () => {
  it.each([
    { qs: "hit=yes", expected: [3, 40, 41, 97] },
    { qs: "tags__none=x", expected: [3, 40, 41, 97] },
    { qs: "name__startswith=Y", expected: [3, 40, 41, 97] },
    { qs: "n__gte=90", expected: [91, 93, 95, 97, 99] },
    { qs: "hit=yes&n__lt=41&mode=AND", expected: [3, 40] },
    { qs: "hit=yes&n=99&mode=OR", expected: [3, 40, 41, 97, 99] },
  ])("?$qs", ({ qs, expected }) => {
    const db = openDatabase({ path: ":memory:" });
    const hits = new Set([3, 40, 41, 97]);
    const records: StoredRecord[] = [];
    for (let n = 1; n <= 100; n++) {
      // Even numbers go to another collection, so the person rids have gaps.
      const type = n % 2 === 0 && !hits.has(n) ? "other" : "person";
      const hit = hits.has(n);
      records.push(rec(n, type, { n, hit: hit ? "yes" : "no", tags: hit ? null : ["x"], name: hit ? "Yes" : "No" }));
    }
    const catalog = createCatalog(db.$client);
    createApplier(db, catalog)({ records: records.map((record) => ({ kind: "insert" as const, record })) });
    const scan = createScanner(db, catalog, 5);
    const q = parseListQuery(new URLSearchParams(qs), { surface: "v1", now: new Date() });
    const seen: number[] = [];
    let cursor: string | null = null;
    let steps = 0;
    do {
      const page = scan("f1", "person", q, cursor, 2);
      expect(page.records.length).toBeLessThanOrEqual(2);
      seen.push(...page.records.map((r) => r.data.n as number));
      cursor = page.cursor;
      steps += 1;
    } while (cursor !== null && steps < 500);
    expect(seen).toEqual(expected);
    expect(steps).toBeGreaterThan(expected.length / 2); // the window made it walk in several steps
    db.$client.close();
  });
});
