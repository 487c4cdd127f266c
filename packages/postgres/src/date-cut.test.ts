/**
 * The date cut of `countFieldValues` happens in PostgreSQL: over 2,000 persons with distinct
 * timestamps, the statement itself returns one row per period (not one per record) for data
 * fields, list entries and the record's own timestamps.
 */
import { parseListQuery } from "@records-service/core";
import { fieldCountsStatement, postgresDialect, toFieldCountRows } from "@records-service/sql";
import { dateCutRecords, DATE_CUT_ROW_CASES, insertsOf } from "@records-service/sql/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCatalog } from "./catalog.js";
import { render } from "./exec.js";
import { compiler } from "./read.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const N = 2000;

describe.skipIf(!inject("pgAvailable"))("date cut in PostgreSQL", () => {
  let db: TestDatabase;
  let cid: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    const storage = await db.emptyStorage();
    await storage.apply({ records: insertsOf(dateCutRecords(N)) });
    await storage.close();
    cid = (await createCatalog().collectionId(db.pool, "f1", "person"))!;
  }, 60_000);
  afterAll(async () => {
    await db?.drop();
  });

  it.each(DATE_CUT_ROW_CASES)("$fields cut to $cuts: $rows rows", async ({ fields, cuts, rows }) => {
    const where = compiler.where(cid, parseListQuery(new URLSearchParams(), { surface: "v2", now: new Date("2026-03-01T00:00:00Z") }), () => undefined);
    const run = async (cut?: typeof cuts) => {
      const { sql, params } = render(fieldCountsStatement(postgresDialect, where, fields, cut));
      return (await db.pool.query<Record<string, unknown>>(sql, params)).rows;
    };
    const read = await run(cuts);
    expect(read).toHaveLength(rows);
    expect(toFieldCountRows(read, fields, cuts).reduce((n, g) => n + g.count, 0)).toBe(N);
    // Uncut, the same statement reads one row per distinct value.
    expect((await run()).length).toBeGreaterThan(rows);
  });
});
