/**
 * The PostgreSQL search index: the search statement is answered from the GIN index (no
 * sequential scan of the index table or of `records`) on a collection large enough that
 * the planner would scan if the index did not fit; records written before the index
 * existed get their rows on open.
 */
import type { StoredRecord } from "@records-service/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { render } from "./exec.js";
import { searchQuery, searchStatement } from "./search.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const N = 20_000;

function _person(i: number): StoredRecord {
  return {
    id: (i + 1).toString(16).padStart(24, "0"),
    flock: "demo",
    type: "person",
    state: "updated",
    data: { first_name: `First${i % 997}`, last_name: `Name${i}`, email: [`p${i}@example.org`] },
    displayValue: `First${i % 997} Name${i}`,
    created: "2026-01-01T00:00:00.000000",
    lastUpdated: "2026-01-01T00:00:00.000000",
    version: 1,
  };
}

describe.skipIf(!inject("pgAvailable"))("search index (PostgreSQL)", () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    const storage = await db.emptyStorage();
    for (let from = 0; from < N; from += 2000) {
      await storage.apply({ records: Array.from({ length: 2000 }, (_, k) => ({ kind: "insert" as const, record: _person(from + k) })) });
    }
    await storage.close();
    await db.pool.query("VACUUM ANALYZE");
  }, 120_000);
  afterAll(async () => {
    await db?.drop();
  });

  it("answers from the GIN index, never scanning", async () => {
    const cid = (await db.pool.query<{ cid: number }>("SELECT cid FROM collections WHERE type = 'person'")).rows[0]!.cid;
    const { sql, params } = render(searchStatement([cid], ["name1234"], 20, true));
    const plan = (await db.pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toContain("record_search_doc_idx");
    expect(plan).not.toMatch(/Seq Scan on (record_search|records)/);
  });

  it("quotes terms into tsquery text", () => {
    expect(searchQuery(["ada", "love"], true)).toBe("'ada':* & 'love':*");
    expect(searchQuery(["ada"], false)).toBe("'ada'");
  });

  it("adds the rows of records written before the index on open", async () => {
    await db.pool.query("DELETE FROM record_search WHERE rid IN (SELECT rid FROM records ORDER BY rid LIMIT 3)");
    const before = await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM record_search");
    expect(Number(before.rows[0]!.n)).toBe(N - 3);
    const storage = await createPostgresStorage({ pool: db.pool });
    const after = await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM record_search");
    expect(Number(after.rows[0]!.n)).toBe(N);
    expect((await storage.searchRecords("demo", ["person"], ["name0"], 5, false)).map((r) => r.displayValue)).toContain("First0 Name0");
    await storage.close();
  });
});
