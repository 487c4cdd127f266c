/**
 * Another process holding the write lock makes a write wait and retry (off the event loop),
 * never fail: longer than SQLite's own wait (lockWaitMs), the call still succeeds once the
 * lock is released; a read is never held up by it (WAL).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage, isSqliteBusy } from "./driver.js";

const dir = mkdtempSync(join(tmpdir(), "records-busy-"));
const path = join(dir, "records.db");
const storage = createSqliteStorage({ path, lockWaitMs: 20 });
const other = new Database(path);
afterAll(async () => {
  await storage.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

const record = (n: number) => ({
  id: n.toString(16).padStart(24, "0"),
  flock: "f1",
  type: "person",
  state: "updated" as const,
  data: { n },
  displayValue: `r${n}`,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

describe("a SQLite file whose write lock another process holds", () => {
  it("makes writes wait and retry until the lock is free, and reads go on meanwhile", async () => {
    await storage.createFlock({ identifier: "f1", name: "F1", created: "2026-01-01T00:00:00.000000" });
    other.exec("BEGIN IMMEDIATE");
    other.prepare("INSERT OR REPLACE INTO settings (name, value) VALUES ('held', '1')").run();
    let released = false;
    const release = setTimeout(() => {
      other.exec("COMMIT");
      released = true;
    }, 300);
    const writes = [1, 2, 3].map((n) => storage.apply({ records: [{ kind: "insert", record: record(n) }] }));
    const limit = storage.updateLimit("k", 0, () => ({ value: "v", expiresAt: 1000 }));
    // While they wait, this process still reads.
    expect((await storage.getFlock("f1"))?.name).toBe("F1");
    expect(released).toBe(false);
    await Promise.all([...writes, limit]);
    clearTimeout(release);
    expect(released).toBe(true);
    expect((await storage.getRecord("f1", "person", record(3).id))?.data).toEqual({ n: 3 });
    expect(await storage.getSetting("held")).toBe("1");
  });

  it("knows SQLite's busy codes", () => {
    expect(isSqliteBusy(Object.assign(new Error("locked"), { code: "SQLITE_BUSY_SNAPSHOT" }))).toBe(true);
    expect(isSqliteBusy(Object.assign(new Error("x"), { code: "SQLITE_CONSTRAINT" }))).toBe(false);
    expect(isSqliteBusy(null)).toBe(false);
  });
});
