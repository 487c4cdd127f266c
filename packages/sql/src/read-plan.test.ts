import { describe, expect, it } from "vitest";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Filter, ListQuery } from "@records-service/core";
import { createQueryCompiler } from "./compile.js";
import { sqliteDialect } from "./dialects.js";
import { countPlan, cursorBefore, FEW_DELETED, inAskedOrder, pagePlan, scanCursorFrom, statesHeld, takeScanRows } from "./read-plan.js";

const compiler = createQueryCompiler(sqliteDialect);
const render = new SQLiteSyncDialect();
const fid = (name: string) => (name === "last_name" ? 7 : undefined);
const eqLovelace: Filter = { field: "last_name", op: "eq", values: [{ text: "Lovelace" }], meta: false };
const query = (over: Partial<ListQuery>): ListQuery =>
  ({ filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 25, ...over }) as ListQuery;

describe("pagePlan", () => {
  it.each([
    { page: 1, pageSize: 25, total: 100, expected: { limit: 25, offset: 0, fromEnd: false } },
    { page: 4, pageSize: 25, total: 100, expected: { limit: 25, offset: 0, fromEnd: true } },
    { page: 3, pageSize: 25, total: 90, expected: { limit: 25, offset: 15, fromEnd: true } },
    { page: 4, pageSize: 25, total: 90, expected: { limit: 15, offset: 0, fromEnd: true } },
    { page: 5, pageSize: 25, total: 100, expected: undefined },
    { page: 1, pageSize: 0, total: 100, expected: undefined },
    { page: 1, pageSize: 25, total: 0, expected: undefined },
  ])("page $page of $pageSize among $total", ({ page, pageSize, total, expected }) => {
    expect(pagePlan({ page, pageSize }, total)).toEqual(expected);
  });
});

describe("countPlan", () => {
  const where = () => compiler.where(1, query({ filters: [eqLovelace] }), fid);
  it("answers an unfiltered list from the kept counts of the states shown", () => {
    const kept = new Map([["updated", 40], ["deleted", 2]]);
    expect(countPlan(compiler, 1, query({}), where, fid, kept)).toEqual({ kind: "kept", total: 40 });
    expect(countPlan(compiler, 1, query({ states: ["updated", "deleted"] }), where, fid, kept)).toEqual({ kind: "kept", total: 42 });
  });
  it("counts from the value index alone when nothing is deleted", () => {
    const plan = countPlan(compiler, 1, query({ filters: [eqLovelace] }), where, fid, new Map([["updated", 40]]));
    expect(plan.kind).toBe("count");
    expect(plan.kind === "count" && render.sqlToQuery(plan.sql).sql).toMatch(/FROM record_values/);
  });
  it("subtracts the deleted matches when a few are deleted, probes states when many are", () => {
    const few = countPlan(compiler, 1, query({ filters: [eqLovelace] }), where, fid, new Map([["updated", 40], ["deleted", 3]]));
    expect(few.kind).toBe("difference");
    const many = countPlan(compiler, 1, query({ filters: [eqLovelace] }), where, fid, new Map([["deleted", FEW_DELETED + 1]]));
    expect(many.kind === "count" && render.sqlToQuery(many.sql).sql).toMatch(/FROM records r/);
  });
});

describe("statesHeld", () => {
  it.each([
    { name: "live, none deleted: every state, so no state test", states: ["updated"], kept: [["updated", 40]], expected: ["updated", "deleted"] },
    { name: "live, some deleted: as asked", states: ["updated"], kept: [["updated", 40], ["deleted", 1]], expected: ["updated"] },
    { name: "deleted only, none live: every state", states: ["deleted"], kept: [["deleted", 3], ["updated", 0]], expected: ["deleted", "updated"] },
    { name: "an empty collection: every state", states: ["updated"], kept: [], expected: ["updated", "deleted"] },
    { name: "every state asked: as asked", states: ["updated", "deleted"], kept: [["deleted", 2]], expected: ["updated", "deleted"] },
  ] as const)("$name", ({ states, kept, expected }) => {
    const held = statesHeld(query({ states: [...states] }), new Map(kept));
    expect(held.states).toEqual(expected);
    expect(compiler.states(held.states) === undefined).toBe(expected.length === 2);
  });
});

describe("scan steps", () => {
  const rows = (n: number, size = 10) => Array.from({ length: n }, (_, i) => ({ rid: i + 1, data: "x".repeat(size) }));
  it("goes on from the last taken row when one row more than asked was read", () => {
    const step = takeScanRows(rows(4), 3, undefined);
    expect(step.rows.map((r) => r.rid)).toEqual([1, 2, 3]);
    expect(step.next).toEqual({ cursor: "3" });
  });
  it("says the window was walked when fewer rows came", () => {
    expect(takeScanRows(rows(2), 3, undefined).next).toBe("window");
  });
  it("cuts a step of large rows at maxDataLength, always keeping the first", () => {
    const step = takeScanRows(rows(5, 100), 4, 150);
    expect(step.rows.map((r) => r.rid)).toEqual([1]);
    expect(step.next).toEqual({ cursor: "1" });
  });
  it("stops reading where it cuts", () => {
    let read = 0;
    function* lazy() {
      for (const r of rows(10, 100)) {
        read++;
        yield r;
      }
    }
    takeScanRows(lazy(), 8, 150);
    expect(read).toBe(2);
  });
  it("parses cursors and refuses others", () => {
    expect(scanCursorFrom(null)).toBe(0);
    expect(scanCursorFrom("42")).toBe(42);
    expect(() => scanCursorFrom("4x")).toThrow(expect.objectContaining({ detail: expect.stringMatching(/not a scan cursor/) }));
    expect(cursorBefore(null)).toBeNull();
    expect(cursorBefore("101")).toBe("100");
  });
});

describe("inAskedOrder", () => {
  it("answers in the order asked, each once, leaving out the missing", () => {
    const found = new Map([["person/a", 1], ["person/b", 2]]);
    const keys = [{ type: "person", id: "b" }, { type: "person", id: "x" }, { type: "person", id: "a" }, { type: "person", id: "b" }];
    expect(inAskedOrder(keys, found)).toEqual([2, 1]);
  });
});
