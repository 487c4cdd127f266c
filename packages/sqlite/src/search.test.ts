/**
 * The SQLite search index: FTS5 answers the search (the plan reads the virtual table's
 * index and each record by its key, never scanning `records`); the match text quotes terms;
 * records written before the index existed get their rows on open.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";
import { SEARCH_STATEMENT, searchMatch } from "./search.js";

const dir = mkdtempSync(join(tmpdir(), "search-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const person = (i: number) => ({
  id: (i + 1).toString(16).padStart(24, "0"),
  flock: "demo",
  type: "person",
  state: "updated" as const,
  data: { first_name: `First${i}`, last_name: "Lovelace" },
  displayValue: `First${i} Lovelace`,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

describe("SQLite search index", () => {
  it("writes the match text with quoted prefix terms and scope tokens", () => {
    expect(searchMatch(["ada", 'x"y'], true)).toBe('"ada"* AND "x""y"*');
    expect(searchMatch(["ada"], false)).toBe('"ada"');
  });

  it("plans the search through the FTS5 index and record keys", async () => {
    const path = join(dir, "plan.db");
    const storage = createSqliteStorage({ path });
    await storage.apply({ records: Array.from({ length: 50 }, (_, i) => ({ kind: "insert" as const, record: person(i) })) });
    await storage.close();
    const client = new Database(path);
    const plan = client
      .prepare(`EXPLAIN QUERY PLAN ${SEARCH_STATEMENT}`)
      .all(searchMatch(["first1"], true), "[1]", 10) as { detail: string }[];
    client.close();
    const text = plan.map((p) => p.detail).join("\n");
    expect(text).toMatch(/SCAN s VIRTUAL TABLE INDEX/);
    expect(text).toMatch(/SEARCH r USING INTEGER PRIMARY KEY/);
    expect(text).not.toMatch(/SCAN r\b/);
  });

  it("adds the rows of records written before the index on open", async () => {
    const path = join(dir, "backfill.db");
    let storage = createSqliteStorage({ path });
    await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    await storage.apply({ records: Array.from({ length: 5 }, (_, i) => ({ kind: "insert" as const, record: person(i) })) });
    await storage.close();
    const client = new Database(path);
    client.exec("DELETE FROM record_search");
    client.close();
    storage = createSqliteStorage({ path });
    expect((await storage.searchRecords("demo", ["person"], ["lovelace"], 10, false)).length).toBe(5);
    await storage.close();
  });
});
