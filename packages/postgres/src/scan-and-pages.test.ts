/**
 * The special paths of the shared compiler on PostgreSQL, as the SQLite adapter tests them:
 * a scan with a tiny window crosses stretches without a match (and other collections'
 * rids) in empty steps and still visits every match once, in order; the equality page and
 * the count from the value index give a record holding one text under two kinds once,
 * and show deleted records only when asked. A page past `maxDataLength` is cut by the server,
 * not sent whole.
 */
import { parseListQuery, type StoredRecord } from "@records-service/core";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createCatalog } from "./catalog.js";
import { exec } from "./exec.js";
import { upToDataLength } from "./read.js";
import { createScanner } from "./scan.js";
import { useTestStorage } from "../test/test-storage.js";

const rec = (n: number, type: string, data: Record<string, unknown>, state: StoredRecord["state"] = "updated"): StoredRecord => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "f1",
  type,
  state,
  data,
  displayValue: `r${n}`,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

describe.skipIf(!inject("pgAvailable"))("scans and equality pages (PostgreSQL)", () => {
  const t = useTestStorage();

  it.each([
    { qs: "hit=yes", expected: [3, 40, 41, 97] },
    { qs: "tags__none=x", expected: [3, 40, 41, 97] },
    { qs: "name__startswith=Y", expected: [3, 40, 41, 97] },
    { qs: "n__gte=90", expected: [91, 93, 95, 97, 99] },
    { qs: "hit=yes&n__lt=41&mode=AND", expected: [3, 40] },
    { qs: "hit=yes&n=99&mode=OR", expected: [3, 40, 41, 97, 99] },
  ])("a scan with a window of 5 rids: ?$qs", async ({ qs, expected }) => {
    await t.storage.close();
    t.storage = await t.db.emptyStorage();
    const hits = new Set([3, 40, 41, 97]);
    const records: StoredRecord[] = [];
    for (let n = 1; n <= 100; n++) {
      // Even numbers go to another collection, so the person rids have gaps.
      const type = n % 2 === 0 && !hits.has(n) ? "other" : "person";
      const hit = hits.has(n);
      records.push(rec(n, type, { n, hit: hit ? "yes" : "no", tags: hit ? null : ["x"], name: hit ? "Yes" : "No" }));
    }
    await t.storage.apply({ records: records.map((record) => ({ kind: "insert" as const, record })) });
    const scan = createScanner(t.db.pool, createCatalog(), 5);
    const q = parseListQuery(new URLSearchParams(qs), { surface: "v1", now: new Date() });
    const seen: number[] = [];
    let cursor: string | null = null;
    let steps = 0;
    do {
      const page = await scan("f1", "person", q, cursor, 2);
      expect(page.records.length).toBeLessThanOrEqual(2);
      seen.push(...page.records.map((r) => r.data.n as number));
      cursor = page.cursor;
      steps += 1;
    } while (cursor !== null && steps < 500);
    expect(seen).toEqual(expected);
    expect(steps).toBeGreaterThan(expected.length / 2); // the window made it walk in several steps
  });

  describe("equality pages and counts", () => {
    const list = (qs: string) =>
      t.storage.listRecords("f1", "thing", parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") }));
    const ids = (page: { records: StoredRecord[] }) => page.records.map((r) => Number.parseInt(r.id, 16));

    beforeAll(async () => {
      await t.storage.close();
      t.storage = await t.db.emptyStorage();
      await t.storage.apply({
        records: [
          rec(1, "thing", { tags: ["1", 1, true, "true"] }),
          rec(2, "thing", { tags: [1] }),
          rec(3, "thing", { tags: ["1"] }, "deleted"),
          rec(4, "thing", { tags: ["2"] }),
          rec(5, "thing", { tags: ["1", 1] }),
        ].map((r) => ({ kind: "insert" as const, record: r })),
      });
    });

    it("give a record with the same text under two kinds once", async () => {
      const page = await list("tags=1");
      expect([ids(page), page.total]).toEqual([[1, 2, 5], 3]);
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

  it("cut a page of large records on the server soon after maxDataLength", async () => {
    t.storage = await t.db.emptyStorage();
    const big = [...Array(40).keys()].map((n) => rec(n + 1, "big", { t: "x".repeat(10_000) }));
    await t.storage.apply({ records: big.map((record) => ({ kind: "insert" as const, record })) });
    const page = upToDataLength(sql`SELECT r.data FROM records r ORDER BY r.rid LIMIT 40`, 25_000);
    // Two rows fit, the third passes the budget and one more is kept for the caller's check.
    expect((await exec(t.db.pool, page)).rows).toHaveLength(4);
    const query = { ...parseListQuery(new URLSearchParams("page_size=40"), { surface: "v1", now: new Date() }), maxDataLength: 25_000 };
    await expect(t.storage.listRecords("f1", "big", query)).rejects.toMatchObject({ message: "answer too large" });
  });
});
