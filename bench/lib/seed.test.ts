import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { formatSize, parseSize, seedFile } from "./seed.js";

const dir = mkdtempSync(join(tmpdir(), "bench-seed-"));
const now = new Date("2026-06-01T12:00:00Z");
/**
 * Persons per seeded file: enough for every table and index to hold rows, small enough that
 * seeding twice stays well inside the test bound on a loaded machine (2,000 took 66 s at load 17).
 */
const PERSONS = 600;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every row of every table (in primary-key order), and every index's name and SQL. */
function dump(file: string): { tables: Record<string, unknown[]>; indexes: unknown[] } {
  const db = new Database(file, { readonly: true });
  try {
    const names = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations' ORDER BY name")
      .all()
      .map((r) => r.name);
    const tables: Record<string, unknown[]> = {};
    for (const t of names) {
      // The search index (an FTS5 table) has one column; every other table has two or more.
      const columns = db.prepare(`SELECT * FROM "${t}" LIMIT 0`).columns().length;
      // The account tables' mark is a random number per change by design (migration 0015): its row, not its value.
      if (t === "account_changes") tables[t] = db.prepare("SELECT id FROM account_changes").all();
      else tables[t] = db.prepare(`SELECT * FROM "${t}" ORDER BY ${columns > 1 ? "1, 2" : "1"}`).all();
    }
    const indexes = db.prepare("SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name").all();
    return { tables, indexes };
  } finally {
    db.close();
  }
}

describe("seedFile", () => {
  it("with indexes built afterwards, writes exactly what plain apply writes", async () => {
    const [fast, plain] = [join(dir, "fast.db"), join(dir, "plain.db")];
    const a = await seedFile(fast, PERSONS, 7, () => {}, { now });
    const b = await seedFile(plain, PERSONS, 7, () => {}, { deferIndexes: false, now });
    expect(a).toEqual(b);
    const [da, db] = [dump(fast), dump(plain)];
    expect(Object.keys(da.tables)).toContain("record_values");
    expect(da.tables.records).toHaveLength(PERSONS + PERSONS / 2 + PERSONS / 4);
    expect(da).toEqual(db);
    // The rebuilt indexes answer lookups as the maintained ones do.
    const check = (file: string) => {
      const d = new Database(file, { readonly: true });
      const rows = d.prepare("SELECT rid FROM record_values INDEXED BY record_values_fid_folded_idx WHERE fid = 2 AND folded >= 'a' AND folded < 'c' ORDER BY fid, folded, rid").all();
      d.close();
      return rows;
    };
    expect(check(fast)).toEqual(check(plain));
    expect(check(fast).length).toBeGreaterThan(0);
  });

  it("is reproducible: the same seed gives the same persons and ids", async () => {
    const again = join(dir, "again.db");
    await seedFile(again, PERSONS, 7, () => {}, { now });
    const ids = (file: string) => {
      const d = new Database(file, { readonly: true });
      const rows = d.prepare("SELECT id, data FROM records ORDER BY rid LIMIT 50").all();
      d.close();
      return rows;
    };
    expect(ids(again)).toEqual(ids(join(dir, "fast.db")));
  });
});

describe("parseSize / formatSize", () => {
  it.each([
    ["10k", 10_000],
    ["100K", 100_000],
    ["1M", 1_000_000],
    ["2500", 2500],
    ["1.5k", 1500],
  ])("%s is %d", (text, n) => {
    expect(parseSize(text)).toBe(n);
  });
  it.each(["", "ten", "10x", "-1k", "999"])("refuses %j", (text) => {
    expect(() => parseSize(text)).toThrow(/size/);
  });
  it("formats back", () => {
    expect([10_000, 1_000_000, 2500].map(formatSize)).toEqual(["10k", "1M", "2500"]);
  });
});
