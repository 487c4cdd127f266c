/**
 * The SQLite search index: FTS5 answers the search (the plan reads the virtual table's
 * index and each record by its key, never scanning `records`); the match text quotes terms;
 * records written before the index existed get their rows on open; small writes queue
 * their records (`search_pending`) and large ones index them at once; a queue left by a
 * process killed with SIGKILL is merged after reopening.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";
import { SEARCH_DIRECT_MIN, SEARCH_STATEMENT, searchMatch } from "./search.js";

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

  it("queues a small write's records and indexes a large change set's at once", async () => {
    const path = join(dir, "queue.db");
    const storage = createSqliteStorage({ path });
    await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    await storage.apply({ records: [{ kind: "insert", record: person(0) }] });
    expect(_counts(path)).toEqual({ pending: 1, indexed: 0 });
    const many = Array.from({ length: SEARCH_DIRECT_MIN }, (_, i) => ({ kind: "insert" as const, record: person(i + 1) }));
    await storage.apply({ records: many });
    expect(_counts(path)).toEqual({ pending: 1, indexed: SEARCH_DIRECT_MIN });
    expect(await storage.mergeSearchIndex(10)).toBe(1);
    expect(await storage.mergeSearchIndex(10)).toBe(0);
    expect(_counts(path)).toEqual({ pending: 0, indexed: SEARCH_DIRECT_MIN + 1 });
    // A queued record purged before its merge is dropped from the queue.
    const late = person(500);
    await storage.apply({ records: [{ kind: "insert", record: late }] });
    await storage.deleteRecords("demo", "person", [late.id]);
    expect(await storage.mergeSearchIndex(10)).toBe(1);
    expect(_counts(path)).toEqual({ pending: 0, indexed: SEARCH_DIRECT_MIN + 1 });
    await storage.close();
  });

  it("queues an update only when the search document may change (a searched field, the display value or the state)", async () => {
    const path = join(dir, "update-queue.db");
    const storage = createSqliteStorage({ path });
    await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
    const v1 = person(0);
    await storage.apply({ records: [{ kind: "insert", record: v1 }] });
    await storage.mergeSearchIndex(10);
    const v2 = { ...v1, data: { ...v1.data, job_title: "Analyst" }, version: 2 };
    await storage.apply({ records: [{ kind: "update", record: v2, expectedVersion: 1, changed: ["job_title"], before: v1 }] });
    expect(_counts(path)).toEqual({ pending: 0, indexed: 1 });
    const v3 = { ...v2, data: { ...v2.data, locality: "Marylebone" }, version: 3 };
    await storage.apply({ records: [{ kind: "update", record: v3, expectedVersion: 2, changed: ["locality"], before: v2 }] });
    expect(_counts(path)).toEqual({ pending: 1, indexed: 1 });
    expect((await storage.searchRecords("demo", ["person"], ["maryle"], 10, true)).map((r) => r.version)).toEqual([3]);
    // Without the record as read, every change is queued, as before.
    const v4 = { ...v3, data: { ...v3.data, job_title: "Lead" }, version: 4 };
    await storage.apply({ records: [{ kind: "update", record: v4, expectedVersion: 3, changed: ["job_title"] }] });
    expect(_counts(path)).toEqual({ pending: 1, indexed: 1 });
    await storage.close();
  });

  it("merges, after a restart, the queue of a process killed right after its writes were acknowledged", async () => {
    const path = join(dir, "killed.db");
    const driver = fileURLToPath(new URL("./driver.ts", import.meta.url));
    const script = `
      import { createSqliteStorage } from ${JSON.stringify(driver)};
      const storage = createSqliteStorage({ path: ${JSON.stringify(path)} });
      await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
      for (let i = 0; i < 40; i++) {
        await storage.apply({ records: [{ kind: "insert", record: ${_personSource} }] });
      }
      process.kill(process.pid, "SIGKILL");`;
    const child = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8",
    });
    expect(child.signal, child.stderr).toBe("SIGKILL");
    expect(_counts(path)).toEqual({ pending: 40, indexed: 0 });
    const storage = createSqliteStorage({ path });
    // Open's backfill indexes records without a row; the queue is merged by the next search or merge.
    expect((await storage.searchRecords("demo", ["person"], ["lovelace"], 100, false)).length).toBe(40);
    expect(await storage.mergeSearchIndex(100)).toBe(0);
    expect(_counts(path)).toEqual({ pending: 0, indexed: 40 });
    await storage.close();
  });
});

// --- internal ---

/** The child's person `i` (the same shape as `person`), as source text. */
const _personSource = `({ id: (i + 1).toString(16).padStart(24, "0"), flock: "demo", type: "person", state: "updated",
  data: { first_name: "First" + i, last_name: "Lovelace" }, displayValue: "First" + i + " Lovelace",
  created: "2026-01-01T00:00:00.000000", lastUpdated: "2026-01-01T00:00:00.000000", version: 1 })`;

/** Rows in the search queue and in the index. */
function _counts(path: string): { pending: number; indexed: number } {
  const client = new Database(path, { readonly: true });
  try {
    const n = (sql: string) => (client.prepare(sql).get() as { n: number }).n;
    return { pending: n("SELECT count(*) AS n FROM search_pending"), indexed: n("SELECT count(*) AS n FROM record_search") };
  } finally {
    client.close();
  }
}
