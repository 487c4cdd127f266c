import { describe, expect, it } from "vitest";
import { createStatementNames } from "./statement-names.js";

describe("statement names", () => {
  it("gives each planned text one name, the same every time, up to the bound", () => {
    const names = createStatementNames(2);
    expect(names("SELECT 1")).toBe("records_auto_1");
    expect(names("  with x AS (SELECT 1) SELECT * FROM x")).toBe("records_auto_2");
    expect(names("SELECT 1")).toBe("records_auto_1");
    // Past the bound, new texts run unnamed; the named ones keep their names.
    expect(names("SELECT 2")).toBeUndefined();
    expect(names("  with x AS (SELECT 1) SELECT * FROM x")).toBe("records_auto_2");
  });

  it("leaves statements PostgreSQL does not plan unnamed", () => {
    const names = createStatementNames();
    for (const text of ["CREATE TABLE t (a int)", "SET LOCAL statement_timeout = 0", "LISTEN x", "BEGIN", "SELECTED"]) expect(names(text)).toBeUndefined();
    for (const text of ["INSERT INTO t VALUES ($1)", "update t SET a = 1", "DELETE FROM t"]) expect(names(text)).toMatch(/^records_auto_\d+$/);
  });
});
