import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createCatalog, FIELD_CACHE_SIZE } from "./catalog.js";

/** The two catalogue tables, as drizzle/0000_init.sql declares them (less the foreign key). */
function client(): Database.Database {
  const db = new Database(":memory:");
  db.exec(`CREATE TABLE collections (cid INTEGER PRIMARY KEY, flock TEXT NOT NULL, type TEXT NOT NULL);
    CREATE UNIQUE INDEX collections_flock_type_idx ON collections (flock, type);
    CREATE TABLE fields (fid INTEGER PRIMARY KEY, cid INTEGER NOT NULL, name TEXT NOT NULL);
    CREATE UNIQUE INDEX fields_cid_name_idx ON fields (cid, name);`);
  return db;
}

describe("catalog", () => {
  it("keeps at most FIELD_CACHE_SIZE field ids in memory, however many names clients invent", () => {
    const db = client();
    const catalog = createCatalog(db);
    const cid = catalog.ensureCollection("demo", "journal");
    const ids = new Map<string, number>();
    db.transaction(() => {
      for (let i = 0; i < FIELD_CACHE_SIZE + 500; i++) ids.set(`f${i}`, catalog.ensureField(cid, `f${i}`));
    })();
    expect(catalog.cachedFieldCount()).toBeLessThanOrEqual(FIELD_CACHE_SIZE);
    expect(catalog.cachedFieldCount()).toBeGreaterThan(0);
    // Every id is still found (from the database when no longer cached), and stays the same.
    for (const name of ["f0", "f1", `f${FIELD_CACHE_SIZE}`, `f${FIELD_CACHE_SIZE + 499}`]) {
      expect(catalog.fieldId(cid, name)).toBe(ids.get(name));
      expect(catalog.ensureField(cid, name)).toBe(ids.get(name));
    }
    expect(db.prepare("SELECT count(*) AS n FROM fields").get()).toEqual({ n: FIELD_CACHE_SIZE + 500 });
    expect(catalog.fieldId(cid, "never")).toBeUndefined();
  });
});
