import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { exec } from "./exec.js";
import { createStatementNames } from "./statement-names.js";
import { createTestDatabase } from "./testing.js";

describe("statement names", () => {
  it("gives each planned text one name, the same every time, up to the bound", () => {
    const names = createStatementNames(2);
    const one = names("SELECT 1");
    const two = names("  with x AS (SELECT 1) SELECT * FROM x");
    expect(one).toMatch(/^records_auto_[0-9a-f]{24}$/);
    expect(two).toMatch(/^records_auto_[0-9a-f]{24}$/);
    expect(two).not.toBe(one);
    expect(names("SELECT 1")).toBe(one);
    // Past the bound, new texts run unnamed; the named ones keep their names.
    expect(names("SELECT 2")).toBeUndefined();
    expect(names("  with x AS (SELECT 1) SELECT * FROM x")).toBe(two);
    // Another instance (another copy of the module on a shared pool) names a text alike.
    expect(createStatementNames()("SELECT 1")).toBe(one);
  });

  it("leaves statements PostgreSQL does not plan unnamed", () => {
    const names = createStatementNames();
    for (const text of ["CREATE TABLE t (a int)", "SET LOCAL statement_timeout = 0", "LISTEN x", "BEGIN", "SELECTED"]) expect(names(text)).toBeUndefined();
    for (const text of ["INSERT INTO t VALUES ($1)", "update t SET a = 1", "DELETE FROM t"]) expect(names(text)).toMatch(/^records_auto_[0-9a-f]{24}$/);
  });
});

describe.skipIf(!inject("pgAvailable"))("statements run without a name, on PostgreSQL", () => {
  it("are prepared on the connection once, under their text's name", async () => {
    const db = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      const query = (n: number) => sql`SELECT ${n}::int + 1 AS n`;
      expect((await exec<{ n: number }>(pool, query(1))).rows).toEqual([{ n: 2 }]);
      expect((await exec<{ n: number }>(pool, query(41))).rows).toEqual([{ n: 42 }]);
      const { rows } = await pool.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'records_auto_%'");
      expect(rows).toEqual([{ name: createStatementNames()("SELECT $1::int + 1 AS n"), statement: "SELECT $1::int + 1 AS n" }]);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
