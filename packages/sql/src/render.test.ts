import { parseListQuery } from "@records-service/core";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { createQueryCompiler } from "./compile.js";
import { postgresDialect, sqliteDialect } from "./dialects.js";
import { INDEX_PLAN_CASES, MATCH_COUNT_PLAN_CASES, PAGING_PLAN_CASES } from "./plan-cases.js";
import { fieldCountsStatement, fieldValuesStatement, lazyWhere, pageStatement, sortNumbersProbe } from "./read-plan.js";
import { POSTGRES_PLACEHOLDER, renderSql, renderWith, SQLITE_PLACEHOLDER } from "./render.js";

const NOW = new Date("2026-03-01T12:00:00Z");
const fieldId = (name: string) => ({ last_name: 4, tags: 5, score: 6 })[name];
const DIALECTS = [
  { name: "sqlite", dialect: sqliteDialect, drizzle: new SQLiteSyncDialect(), placeholder: SQLITE_PLACEHOLDER },
  { name: "postgres", dialect: postgresDialect, drizzle: new PgDialect(), placeholder: POSTGRES_PLACEHOLDER },
];
const QUERIES = [
  ...[...INDEX_PLAN_CASES, ...PAGING_PLAN_CASES, ...MATCH_COUNT_PLAN_CASES].map((c) => c.qs),
  "last_name=Lovelace",
  "tags=1",
  "tags=1&include_deleted=Y&page=3&page_size=5",
  "last_name=Lovelace&sort=-score",
  "sort=last_name",
  `last_name=${"€".repeat(400)}`,
  "last_name__ne=a%00b",
  "created__gte=last%20month&tags__none=x&mode=OR",
];

/** Every statement a list, count or field read builds for `qs`. */
function statements(compiler: ReturnType<typeof createQueryCompiler>, qs: string): SQL[] {
  const query = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: NOW });
  const where = lazyWhere(compiler, 1, query, fieldId);
  const at = { limit: 25, offset: 0, fromEnd: false };
  return [
    where(),
    compiler.count(where()),
    compiler.matchCount(query, fieldId),
    compiler.equalityPage(1, query, fieldId, at),
    compiler.equalityPage(1, query, fieldId, { ...at, fromEnd: true }),
    pageStatement(compiler, 1, query, where, fieldId, at),
    pageStatement(compiler, 1, query, where, fieldId, at, false),
    sortNumbersProbe(query, fieldId),
    fieldValuesStatement(compiler.dialect, where(), ["last_name", "created"], 10),
    fieldCountsStatement(compiler.dialect, where(), ["tags", "created"], [undefined, 7]),
  ].filter((s): s is SQL => s !== undefined);
}

describe.each(DIALECTS)("renderSql ($name)", ({ dialect, drizzle, placeholder }) => {
  const compiler = createQueryCompiler(dialect);

  it.each(QUERIES)("renders the statements of ?%s as drizzle does, without drizzle", (qs) => {
    for (const s of statements(compiler, qs)) {
      const { sql: text, params } = drizzle.sqlToQuery(s);
      expect(renderSql(s, placeholder)).toEqual({ sql: text, params });
    }
  });

  it("binds nulls, bigints, booleans and bytes as values", () => {
    const s = sql`SELECT ${null}, ${1n}, ${true}, ${new Uint8Array([0, 1])}, ${Buffer.from("ab")}${sql` AND ${"x"}`}`;
    const { sql: text, params } = drizzle.sqlToQuery(s);
    expect(renderSql(s, placeholder)).toEqual({ sql: text, params });
  });

  it.each([
    { name: "a column", query: () => sql`SELECT ${sqliteTable("t", { a: text("a") }).a}` },
    { name: "sql.param", query: () => sql`SELECT ${sql.param(["a", "b"])}` },
    { name: "a placeholder", query: () => sql`SELECT ${sql.placeholder("p")}` },
    { name: "an identifier", query: () => sql`SELECT ${sql.identifier("x")}` },
    { name: "a list", query: () => sql`SELECT ${["a", "b"]}` },
    { name: "inlined parameters", query: () => sql`SELECT ${sql`${"a"}`.inlineParams()}` },
  ])("leaves $name to drizzle, and renderWith gives drizzle's answer", ({ query }) => {
    expect(renderSql(query(), placeholder)).toBeUndefined();
    const { sql: text, params } = drizzle.sqlToQuery(query());
    expect(renderWith(placeholder, (q) => drizzle.sqlToQuery(q))(query())).toMatchObject({ sql: text, params });
  });
});

describe.each(DIALECTS)("a scanned field's first test of the data text ($name)", ({ dialect, drizzle }) => {
  const compiler = createQueryCompiler(dialect);
  const holds = dialect.name === "sqlite" ? /instr\(r\.data, / : /strpos\(r\.data, /;
  const where = (qs: string) => {
    const query = parseListQuery(new URLSearchParams(qs), { surface: "v2", now: NOW });
    const { sql: text, params } = drizzle.sqlToQuery(lazyWhere(compiler, 1, query, (name) => ({ scan: name }))());
    return { count: text.split(holds).length - 1, params };
  };

  it.each([
    { qs: "shoe=38", count: 1, texts: ["38"] },
    { qs: "shoe__or=38&shoe__or=Wide", count: 2, texts: ["38", "Wide"] },
    { qs: "shoe__and=38&shoe__and=Wide", count: 2, texts: ["38", "Wide"] },
    { qs: "shoe__contains=de%20", count: 1, texts: ["de "] },
    { qs: "shoe__startswith=Wi", count: 1, texts: ["Wi"] },
    { qs: "shoe__near=wide", count: 0, texts: [] },
    { qs: "shoe__startswithi=WI", count: 0, texts: [] },
    { qs: "shoe__gte=40", count: 0, texts: [] },
    { qs: "shoe__ne=38", count: 0, texts: [] },
    { qs: "shoe=a%22b", count: 0, texts: [] }, // a text JSON writes escaped
    { qs: "shoe__contains=", count: 0, texts: [] },
  ])("?$qs: $count", ({ qs, count, texts }) => {
    const got = where(qs);
    expect(got.count).toBe(count);
    for (const t of texts) expect(got.params).toContain(t);
  });
});
