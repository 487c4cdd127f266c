/**
 * The compiled queries use indexes: `EXPLAIN QUERY PLAN` of the page and count statements
 * must name the expected index and never `SCAN` records or record_values, and paging in
 * insertion order must not sort. A change that turns any of these into a full scan fails.
 */
import { parseListQuery } from "@records-service/core";
import { INDEX_PLAN_CASES, MATCH_COUNT_PLAN_CASES, PAGING_PLAN_CASES } from "@records-service/sql/testing";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createCatalog } from "./catalog.js";
import { compiler } from "./compiler.js";
import { openDatabase } from "./open.js";
import { createChangeLog } from "./changes.js";
import { createFieldIndexes } from "./field-indexes.js";
import { createRecordReader } from "./read.js";
import { createApplier } from "./write.js";

const db = openDatabase({ path: ":memory:" });
const catalog = createCatalog(db.$client);
// `score` is no default index: declared, and built at once over the empty collection.
const registry = createFieldIndexes(db.$client, catalog);
registry.setFieldIndex("demo", "person", "score", "index", "operator");
registry.stepFieldIndexes(10);
createApplier(db, catalog)({
  records: Array.from({ length: 40 }, (_, i) => ({
    kind: "insert" as const,
    record: {
      id: (i + 1).toString(16).padStart(24, "0"),
      flock: "demo",
      type: "person",
      state: i % 5 === 0 ? ("deleted" as const) : ("updated" as const),
      data: { last_name: `Name${i}`, tags: ["a", `t${i % 3}`], score: i },
      displayValue: "",
      created: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000000`,
      lastUpdated: "2026-01-02T00:00:00.000000",
      version: 1,
    },
  })),
});
afterAll(() => db.$client.close());
const cid = catalog.collectionId("demo", "person")!;
const dialect = new SQLiteSyncDialect();

/** The plan lines of the page (from the start or the end) and count statements of a query string. */
function plans(qs: string, fromEnd = false): { page: string[]; count: string[] } {
  const q = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") });
  const where = compiler.where(cid, q, (name) => catalog.fieldId(cid, name));
  const explain = (s: ReturnType<typeof compiler.count>) => {
    const { sql, params } = dialect.sqlToQuery(s);
    const rows = db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return rows.map((r) => r.detail);
  };
  return { page: explain(compiler.page(where, { limit: 25, offset: 0, fromEnd })), count: explain(compiler.count(where)) };
}

describe("query plans", () => {
  it.each(INDEX_PLAN_CASES.map((c) => ({ qs: c.qs, index: c.sqlite })))("$qs uses $index", ({ qs, index }) => {
    const { page, count } = plans(qs);
    for (const plan of [page, count]) {
      expect(plan.join("\n")).toContain(index);
      expect(plan.filter((line) => line.startsWith("SCAN"))).toEqual([]);
    }
  });

  it.each(PAGING_PLAN_CASES.map((c) => ({ qs: c.qs, fromEnd: c.fromEnd, index: c.sqlite })))("paging ?$qs (from the end: $fromEnd) walks $index in order", ({ qs, fromEnd, index }) => {
    const { page } = plans(qs, fromEnd);
    expect(page.join("\n")).toContain(index);
    expect(page.filter((line) => line.startsWith("SCAN") || line.includes("TEMP B-TREE"))).toEqual([]);
  });

  it.each(MATCH_COUNT_PLAN_CASES.map((c) => ({ qs: c.qs, index: c.sqlite })))("the count of every state of ?$qs reads only $index", ({ qs, index }) => {
    const q = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") });
    const plan = explainPlan(compiler.matchCount(q, (name) => catalog.fieldId(cid, name))!);
    expect(plan.join("\n")).toContain(index);
    expect(plan.join("\n")).not.toContain("records");
    expect(plan.filter((line) => line.startsWith("SCAN record_values"))).toEqual([]);
  });

  it("the deleted matches are found by walking the deleted records, one probe each", () => {
    const q = parseListQuery(new URLSearchParams("last_name=Name3"), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") });
    const where = compiler.where(cid, { ...q, states: ["deleted"] }, (name) => catalog.fieldId(cid, name), "probe");
    const plan = explainPlan(compiler.count(where)).join("\n");
    expect(plan).toContain("records_cid_deleted_idx (cid=?)");
    expect(plan).toContain("record_values_fid_text_idx (fid=? AND text=? AND rid=?)");
  });

  it.each([false, true])("a page of one equality (from the end: %s) walks that value's entries in order", (fromEnd) => {
    const q = parseListQuery(new URLSearchParams("tags=t1"), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") });
    const plan = explainPlan(compiler.equalityPage(cid, q, (name) => catalog.fieldId(cid, name), { limit: 25, offset: 0, fromEnd })!);
    expect(plan[0]).toContain("SEARCH v USING COVERING INDEX record_values_fid_text_idx (fid=? AND text=?)");
    expect(plan.join("\n")).toContain("SEARCH r USING INTEGER PRIMARY KEY (rowid=?)");
    expect(plan.filter((line) => line.startsWith("SCAN") || line.includes("TEMP B-TREE"))).toEqual([]);
  });

  it("only a single equality gets the equality page", () => {
    const page = { limit: 25, offset: 0, fromEnd: false };
    for (const qs of ["tags=t1&last_name=Name3", "tags__startswith=t", "tags__orlist=t1,t2", "id=x", "unknown=x"]) {
      const q = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") });
      expect(compiler.equalityPage(cid, q, (name) => catalog.fieldId(cid, name), page)).toBeUndefined();
    }
  });

  it("a filter that needs the records is not counted from record_values alone", () => {
    for (const qs of ["tags__none=t1", "created__gte=2026-01-01T00:00:10", "unknown=x", "last_name=Name3&id=x"]) {
      const q = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") });
      expect(compiler.matchCount(q, (name) => catalog.fieldId(cid, name))).toBeUndefined();
    }
  });
});

describe("keyed reads", () => {
  // getRecords sends its ids as one JSON parameter (one prepared statement, any number of
  // ids); getDisplayValues a placeholder per id.
  it.each([
    { method: "getRecords", keyedBy: "FROM records WHERE +cid = ? AND id IN (SELECT value FROM json_each(?))", ids: '["a", "b", "c"]', rest: ["LIST SUBQUERY 1", "SCAN json_each VIRTUAL TABLE INDEX 1:"] },
    { method: "getDisplayValues", keyedBy: " in (", ids: undefined, rest: [] },
  ] as const)("$method probes records_id_idx once per id, never the whole collection", ({ method, keyedBy, ids: json, rest }) => {
    const statements = preparedBy(() => {
      const ids = ["000000000000000000000003", "000000000000000000000007", "ffffffffffffffffffffffff"];
      const found = createRecordReader(db, catalog)[method]("demo", ids.map((id) => ({ type: "person", id })));
      expect(found.map((r) => r.id)).toEqual(ids.slice(0, 2));
    });
    const keyed = statements.filter((s) => s.includes(keyedBy));
    expect(keyed).toHaveLength(1);
    const params = json === undefined ? [cid, "a", "b", "c"] : [cid, json];
    const plan = (db.$client.prepare(`EXPLAIN QUERY PLAN ${keyed[0]}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    expect(plan).toEqual(["SEARCH records USING INDEX records_id_idx (id=?)", ...rest]);
  });
});

describe("the change feed's purge", () => {
  it("finds each chunk's cut in a range of the key, not among every expired entry", () => {
    const cut = preparedBy(() => createChangeLog(db.$client)).filter((s) => s.startsWith("SELECT max(id)"));
    expect(cut).toHaveLength(1);
    const plan = (db.$client.prepare(`EXPLAIN QUERY PLAN ${cut[0]}`).all("demo", 0, 2000, "2026-01-01") as { detail: string }[]).map((r) => r.detail);
    expect(plan).toEqual(["SEARCH changes USING INDEX changes_flock_id_idx (flock=? AND id>? AND id<?)"]);
  });
});

/** The SQL of every statement `run` prepares on the test database. */
function preparedBy(run: () => unknown): string[] {
  const statements: string[] = [];
  const prepare = db.$client.prepare.bind(db.$client);
  const spy = vi.spyOn(db.$client, "prepare").mockImplementation(((source: string) => {
    statements.push(source);
    return prepare(source);
  }) as typeof db.$client.prepare);
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return statements;
}

function explainPlan(s: ReturnType<typeof compiler.count>): string[] {
  const { sql, params } = dialect.sqlToQuery(s);
  return (db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}
