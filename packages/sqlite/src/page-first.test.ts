/**
 * A filtered first page is read before its total: a page shorter than the page size holds
 * every match, so no count statement runs; a full one asks the count as before. The totals
 * and pages are the same either way.
 */
import Database from "better-sqlite3";
import { parseListQuery, updateWrite } from "@records-service/core";
import { insertsOf, testRecord } from "@records-service/sql/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";

/** The texts of the statements run since the last `ran.length = 0`. */
const ran: string[] = [];
type _Prepare = (this: Database.Database, source: string) => Database.Statement;
const proto = Database.prototype as unknown as { prepare: _Prepare };
const prepare = proto.prepare;

// Before the storage opens: it wraps its connection's own `prepare` (the write count).
proto.prepare = function (source) {
  const statement = prepare.call(this, source);
  for (const m of ["all", "get", "iterate", "run"] as const) {
    const run = statement[m].bind(statement) as (...a: unknown[]) => unknown;
    (statement as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
      ran.push(source);
      return run(...args);
    };
  }
  return statement;
};
afterAll(() => {
  proto.prepare = prepare;
});

const storage = createSqliteStorage({ path: ":memory:" });
afterEach(() => {
  ran.length = 0;
});
afterAll(() => storage.close());

const records = [1, 2, 3, 4].map((n) => testRecord(n, "person", { last_name: n === 4 ? "B" : "A", tags: ["x"] }));
await storage.apply({ records: insertsOf(records) });
// A deleted match: left out of the live pages and their totals.
await storage.apply({ records: [updateWrite(records[1]!, { ...records[1]!, state: "deleted", version: 2 })] });

const list = async (qs: string) => {
  ran.length = 0;
  const page = await storage.listRecords("f1", "person", parseListQuery(new URLSearchParams(qs), { surface: "v1", now: new Date(0) }));
  return { total: page.total, ids: page.records.map((r) => Number(r.id.slice(-1))), counted: ran.some((s) => /\bcount\(/i.test(s)) };
};

describe("a filtered first page", () => {
  it("shorter than the page size gives its length as the total without a count", async () => {
    expect(await list("last_name=A")).toEqual({ total: 2, ids: [1, 3], counted: false });
    expect(await list("tags=x&last_name=A")).toEqual({ total: 2, ids: [1, 3], counted: false });
    expect(await list("last_name=A&include_deleted=Y")).toEqual({ total: 3, ids: [1, 2, 3], counted: false });
    expect(await list("last_name=C")).toEqual({ total: 0, ids: [], counted: false });
  });

  it("as long as the page size asks the count", async () => {
    expect(await list("last_name=A&page_size=2")).toEqual({ total: 2, ids: [1, 3], counted: true });
    expect(await list("tags=x&page_size=2")).toEqual({ total: 3, ids: [1, 3], counted: true });
  });

  it("leaves later pages and unfiltered lists to the count first", async () => {
    expect(await list("tags=x&page_size=2&page=2")).toEqual({ total: 3, ids: [4], counted: true });
    // The kept counts answer an unfiltered total: no count statement either way.
    expect(await list("page_size=2")).toEqual({ total: 3, ids: [1, 3], counted: false });
  });
});
