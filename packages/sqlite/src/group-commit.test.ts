/**
 * Group commit: change sets applied in one turn share one transaction, each all-or-nothing
 * and failing alone; a failed commit fails them all and stores nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChangeSet, StoredRecord } from "@records-service/core";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createGroupCommit } from "./group-commit.js";

const rec = (id: string, n: number): StoredRecord => ({
  id,
  flock: "f",
  type: "person",
  state: "updated",
  data: { n },
  displayValue: id,
  created: "2026-01-01T00:00:00.000000",
  lastUpdated: "2026-01-01T00:00:00.000000",
  version: 1,
});

/** A tiny applier of its own table, as the real one: a transaction (a savepoint when nested) that throws on a taken id. */
function setup(path = ":memory:") {
  const db = new Database(path);
  db.pragma("busy_timeout = 0");
  db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER)");
  const ins = db.prepare("INSERT INTO t (id, n) VALUES (?, ?)");
  const one = db.transaction((changes: ChangeSet) => {
    for (const w of changes.records ?? []) ins.run(w.record.id, (w.record.data as { n: number }).n);
  });
  let failures = 0;
  const group = createGroupCommit(db, one, () => (failures += 1));
  const ids = () => (db.prepare("SELECT id FROM t ORDER BY id").pluck().all() as string[]).join(",");
  return { db, group, ids, failures: () => failures };
}

const insert = (...records: StoredRecord[]): ChangeSet => ({ records: records.map((record) => ({ kind: "insert" as const, record })) });

describe("createGroupCommit", () => {
  it("commits the change sets of one turn in one transaction", async () => {
    const { group, ids } = setup();
    await Promise.all([group.apply(insert(rec("a", 1))), group.apply(insert(rec("b", 2))), group.apply(insert(rec("c", 3)))]);
    expect(ids()).toBe("a,b,c");
    expect(group.stats()).toEqual({ commits: 1, changeSets: 3 });
    await group.apply(insert(rec("d", 4)));
    expect(group.stats()).toEqual({ commits: 2, changeSets: 4 });
  });

  it("rejects only the change set that failed, whole: its other writes are rolled back", async () => {
    const { group, ids } = setup();
    await group.apply(insert(rec("a", 1)));
    const results = await Promise.allSettled([
      group.apply(insert(rec("b", 2))),
      group.apply(insert(rec("c", 3), rec("a", 9))), // "a" is taken: "c" must not stay either
      group.apply(insert(rec("d", 4))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(ids()).toBe("a,b,d");
  });

  it("a commit that fails rejects every change set of the group and stores none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-group-"));
    const { group, ids, failures } = setup(join(dir, "g.db"));
    const other = new Database(join(dir, "g.db")); // another connection holding the write lock
    other.exec("BEGIN IMMEDIATE");
    const results = await Promise.allSettled([group.apply(insert(rec("a", 1))), group.apply(insert(rec("b", 2)))]);
    other.exec("ROLLBACK");
    other.close();
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(failures()).toBe(1);
    expect(ids()).toBe("");
    rmSync(dir, { recursive: true, force: true });
  });

  it("flush applies what waits at once (before a close)", async () => {
    const { group, ids } = setup();
    const p = group.apply(insert(rec("a", 1)));
    group.flush();
    expect(ids()).toBe("a");
    await p;
  });
});
