/**
 * The compiled queries use indexes on PostgreSQL: `EXPLAIN` of the page and count
 * statements of every filter shape the SQLite plan tests pin must name the expected index
 * and never scan `records` or `record_values` sequentially, and paging in insertion order
 * must not sort. The collection is large enough (20,000 records of 10 fields, among 180,000
 * records of another type, analysed and vacuumed) that the planner would pick a sequential
 * scan if no index fitted.
 */
import { parseListQuery, type StoredRecord } from "@records-service/core";
import { INDEX_PLAN_CASES, MATCH_COUNT_PLAN_CASES, PAGING_PLAN_CASES } from "@records-service/sql/testing";
import type { SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCatalog } from "./catalog.js";
import { historyStatement } from "./change-history.js";
import { readChangesStatement } from "./changes.js";
import { render } from "./exec.js";
import { compiler } from "./read.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const N = 20_000;
const NOW = new Date("2026-03-01T00:00:00Z");

/** Record `i`: every filter below matches a few dozen records at most. */
function _record(i: number): StoredRecord {
  const stamp = (s: number) => new Date(Date.UTC(2025, 0, 1) + s * 1000).toISOString().replace("Z", "000").slice(0, 26);
  return {
    id: (i + 1).toString(16).padStart(24, "0"),
    flock: "demo",
    type: "person",
    state: i % 50 === 0 ? "deleted" : "updated",
    data: {
      last_name: `Name${i}`,
      first_name: `First${i % 997}`,
      tags: [`t${i % 500}`, `x${i % 450}`],
      score: i,
      email: [`p${i}@example.org`],
      town: `Town${i % 300}`,
      note: `note ${i}`,
      code: `C${i % 1000}`,
      level: i % 7,
    },
    displayValue: `Name${i}`,
    created: stamp(i),
    // The first 30 records were last touched long ago; the rest today.
    lastUpdated: i < 30 ? stamp(i) : "2026-02-28T12:00:00.000000",
    version: 1,
  };
}

describe.skipIf(!inject("pgAvailable"))("query plans (PostgreSQL)", () => {
  let db: TestDatabase;
  let cid: number;
  let fieldId: (name: string) => number | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    const storage = await db.emptyStorage();
    // `score` is no default index field (isIndexedByDefault): an operator's row, ready at once on no records.
    await storage.setFieldIndex("demo", "person", "score", "index", "operator");
    await storage.stepFieldIndexes(1);
    await storage.apply({ records: [{ kind: "insert", record: { ..._record(N), id: "f".repeat(24), type: "other" } }] });
    const other = (await db.pool.query<{ cid: number }>("SELECT cid FROM collections WHERE type = 'other'")).rows[0]!.cid;
    for (let from = 0; from < N; from += 2000) {
      const batch = Array.from({ length: 2000 }, (_, k) => ({ kind: "insert" as const, record: _record(from + k) }));
      await storage.apply({ records: batch });
      // Nine records of another collection per person, interleaved in rid order.
      await db.pool.query(
        `INSERT INTO records (cid, id, state, data, display_value, created, last_updated, version)
         SELECT $1, 'e' || lpad(to_hex(g), 23, '0'), 'updated', '{}', '', '2024-06-01T00:00:00.000000', '2026-02-28T12:00:00.000000', 1
         FROM generate_series($2::int, $3::int) g`,
        [other, from * 9, from * 9 + 17999],
      );
    }
    await storage.close();
    // Statistics for the planner and a visibility map for index-only scans, as autovacuum would.
    await db.pool.query("VACUUM ANALYZE");
    const catalog = createCatalog();
    cid = (await catalog.collectionId(db.pool, "demo", "person"))!;
    fieldId = await catalog.fieldLookup(db.pool, cid, ["last_name", "tags", "score"]);
  }, 120_000);
  afterAll(async () => {
    await db?.drop();
  });

  const parse = (qs: string) => parseListQuery(new URLSearchParams(qs), { surface: "v2", now: NOW });
  const explain = async (statement: SQL): Promise<string> => {
    const { sql, params } = render(statement);
    const { rows } = await db.pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  };
  const plans = async (qs: string, fromEnd = false) => {
    const where = compiler.where(cid, parse(qs), fieldId);
    return {
      page: await explain(compiler.page(where, { limit: 25, offset: 0, fromEnd })),
      count: await explain(compiler.count(where)),
    };
  };

  it.each(INDEX_PLAN_CASES.map((c) => ({ qs: c.qs, index: c.postgres })))("$qs uses $index", async ({ qs, index }) => {
    const { page, count } = await plans(qs);
    for (const plan of [page, count]) {
      expect(plan).toMatch(index);
      expect(plan).not.toMatch(/Seq Scan on (records|record_values)/);
    }
  });

  // The planner walks the collection's index, or the primary key in rid order skipping other
  // collections' records when the collection is a large share of the table; never a sort.
  it.each(PAGING_PLAN_CASES.map((c) => ({ qs: c.qs, fromEnd: c.fromEnd, index: c.postgres })))("paging ?$qs (from the end: $fromEnd) walks $index in order", async ({ qs, fromEnd, index }) => {
    const { page } = await plans(qs, fromEnd);
    expect(page).toMatch(index);
    expect(page).not.toMatch(/Seq Scan|Sort/);
  });

  it.each(MATCH_COUNT_PLAN_CASES.map((c) => ({ qs: c.qs, index: c.postgres })))("the count of every state of ?$qs reads only $index", async ({ qs, index }) => {
    const plan = await explain(compiler.matchCount(parse(qs), fieldId)!);
    expect(plan).toMatch(index);
    expect(plan).not.toMatch(/\bon records\b|Seq Scan/);
  });

  it("the deleted matches are counted through the deleted records' index", async () => {
    const where = compiler.where(cid, { ...parse("last_name=Name3"), states: ["deleted"] }, fieldId, "probe");
    const plan = await explain(compiler.count(where));
    expect(plan).toContain("records_cid_deleted_idx");
    expect(plan).not.toContain("Seq Scan");
  });

  it.each([false, true])("a page of one equality (from the end: %s) walks that value's entries by index", async (fromEnd) => {
    const q = parse("tags=t7");
    const plan = await explain(compiler.equalityPage(cid, q, fieldId, { limit: 25, offset: 0, fromEnd })!);
    expect(plan).toContain("record_values_fid_text_idx");
    expect(plan).toMatch(/records_pkey|records_cid_idx/);
    expect(plan).not.toContain("Seq Scan");
  });

  it.each(["eq", "gte", "startswith"] as const)("a long %s value compares its indexed head first, then the whole value", async (op) => {
    const long = `Name3${"€".repeat(400)}`; // 1,205 bytes: longer than the indexed head
    const q = { ...parse(""), filters: [{ field: "last_name", meta: false, op, values: [{ text: long }] }] };
    const where = compiler.where(cid, q, fieldId);
    for (const statement of [compiler.page(where, { limit: 25, offset: 0, fromEnd: false }), compiler.count(where)]) {
      const plan = await explain(statement);
      expect(plan).toContain("record_values_fid_text_idx");
      expect(plan).toContain("COALESCE(text_long, text)");
      expect(plan).not.toContain("Seq Scan");
    }
  });

  it("a filtered change feed page reads each type through changes_type_idx, never the log by id", async () => {
    const plan = await explain(readChangesStatement("demo", 0, 200, ["nothing", "person"]));
    expect(plan).toContain("changes_type_idx");
    expect(plan).not.toMatch(/Seq Scan on changes|changes_pkey/);
  });

  it("a record's history (its changes, their previous ones, its oldest, the count) is read through changes_record_idx", async () => {
    const plan = await explain(historyStatement("demo", { type: "person", recordId: _record(1234).id, from: "2025-01-01", skip: 0, limit: 100 }));
    // The page walks the index backwards (newest first, no sort under its limit); the only
    // sort is the outer one of the few rows the page kept.
    expect(plan).toContain("Index Scan Backward using changes_record_idx on changes c ");
    expect(plan).toContain("Index Scan Backward using changes_record_idx on changes p ");
    expect(plan).not.toMatch(/Seq Scan on changes/);
  });
});
