import { sql as drizzleSql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { renderSql, SQLITE_PLACEHOLDER } from "./render.js";
import { sql } from "./sql-tag.js";

/** The same fragments built by both tags: `t` is the tag. */
const fragments = (t: typeof drizzleSql): SQL[] => {
  const inner = t`v.fid = ${7} AND v.text = ${"Lovelace"}`;
  return [
    t``,
    t`SELECT 1`,
    t`${1}`,
    t`${"a"}${"b"}`,
    t`r.cid = ${3} AND ${inner} AND r.state IN (${t.join([t`${"updated"}`, t`${"deleted"}`], t`, `)})`,
    t`(${t.raw("r.rid")} > ${null}) OR ${t.empty()} ${Buffer.from("x")}`,
    t`x = ${t.param(5)}`,
  ];
};

describe("the compiler's sql tag", () => {
  it("renders every fragment as drizzle's tag does, on both dialects and by the short walk", () => {
    const ours = fragments(sql);
    const theirs = fragments(drizzleSql);
    const lite = new SQLiteSyncDialect();
    const pg = new PgDialect();
    for (let i = 0; i < ours.length; i++) {
      expect(lite.sqlToQuery(ours[i]!)).toEqual(lite.sqlToQuery(theirs[i]!));
      expect(pg.sqlToQuery(ours[i]!)).toEqual(pg.sqlToQuery(theirs[i]!));
      expect(renderSql(ours[i]!, SQLITE_PLACEHOLDER)).toEqual(renderSql(theirs[i]!, SQLITE_PLACEHOLDER));
      expect(ours[i]!.queryChunks.length).toBe(theirs[i]!.queryChunks.length);
    }
  });

  it("shares a template's text chunks between calls, never its parameters", () => {
    const at = (n: number) => sql`a = ${n} AND b = ${n + 1}`;
    const [one, two] = [at(1), at(2)];
    expect(one.queryChunks[0]).toBe(two.queryChunks[0]);
    expect(renderSql(one, SQLITE_PLACEHOLDER)).toEqual({ sql: "a = ? AND b = ?", params: [1, 2] });
    expect(renderSql(two, SQLITE_PLACEHOLDER)).toEqual({ sql: "a = ? AND b = ?", params: [2, 3] });
    // Appending one fragment to another leaves the template's chunks as they were.
    one.append(sql` LIMIT ${9}`);
    expect(renderSql(at(5), SQLITE_PLACEHOLDER)).toEqual({ sql: "a = ? AND b = ?", params: [5, 6] });
  });

  it("keeps drizzle's helpers", () => {
    expect(sql.join).toBe(drizzleSql.join);
    expect(sql.raw).toBe(drizzleSql.raw);
    expect(sql.empty).toBe(drizzleSql.empty);
  });
});
