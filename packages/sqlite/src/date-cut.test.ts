/**
 * The date cut of `countFieldValues` happens in SQLite: over 2,000 persons with distinct
 * timestamps, the statement itself returns one row per period (not one per record) for data
 * fields, list entries and the record's own timestamps.
 */
import { parseListQuery } from "@records-service/core";
import { fieldCountsStatement, sqliteDialect, toFieldCountRows } from "@records-service/sql";
import { dateCutRecords, DATE_CUT_ROW_CASES, insertsOf } from "@records-service/sql/testing";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { afterAll, describe, expect, it } from "vitest";
import { createCatalog } from "./catalog.js";
import { compiler } from "./compiler.js";
import { openDatabase } from "./open.js";
import { createApplier } from "./write.js";

const N = 2000;
const db = openDatabase({ path: ":memory:" });
const catalog = createCatalog(db.$client);
createApplier(db, catalog)({ records: insertsOf(dateCutRecords(N)) });
afterAll(() => db.$client.close());
const cid = catalog.collectionId("f1", "person")!;
const render = new SQLiteSyncDialect();

describe("date cut in SQLite", () => {
  it.each(DATE_CUT_ROW_CASES)("$fields cut to $cuts: $rows rows", ({ fields, cuts, rows }) => {
    const where = compiler.where(cid, parseListQuery(new URLSearchParams(), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") }), (name) => catalog.fieldId(cid, name));
    const { sql, params } = render.sqlToQuery(fieldCountsStatement(sqliteDialect, where, fields, cuts));
    const read = db.$client.prepare(sql).all(...params) as Record<string, unknown>[];
    expect(read).toHaveLength(rows);
    expect(toFieldCountRows(read, fields, cuts).reduce((n, g) => n + g.count, 0)).toBe(N);
    // Uncut, the same statement reads one row per distinct value.
    const { sql: whole, params: wholeParams } = render.sqlToQuery(fieldCountsStatement(sqliteDialect, where, fields));
    expect((db.$client.prepare(whole).all(...wholeParams) as unknown[]).length).toBeGreaterThan(rows);
  });
});
