/**
 * The change log's commit order on PostgreSQL, shown with two transactions held open by
 * hand: the writer that logs second waits on the flock's head row until the first commits,
 * so ids follow commit order and a reader never sees id 2 while id 1 is still invisible.
 * (With ids from a sequence, the second writer would commit id 2 first and a reader that
 * resumed "after 2" would never see id 1.) A rolled-back writer leaves no gap.
 */
import type { PendingChange } from "@records-service/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { appendChanges, readChanges } from "./changes.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const change = (recordId: string): PendingChange => ({
  flock: "f1",
  type: "thing",
  recordId,
  state: "updated",
  version: 1,
  changedAt: "2026-01-01T00:00:00.000000",
  fields: ["x"],
});

describe.skipIf(!inject("pgAvailable"))("change ids in commit order (PostgreSQL)", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await (await db.emptyStorage()).close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("a second writer takes its id only after the first commits; a rollback leaves no gap", async () => {
    await db.reset();
    const a = await db.pool.connect();
    const b = await db.pool.connect();
    try {
      await a.query("BEGIN");
      await appendChanges(a, [change("a")]);
      const bPid = (await b.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      await b.query("BEGIN");
      const bAppend = appendChanges(b, [change("b")]);
      // B waits on A's head row lock (seen in pg_stat_activity); nothing is visible yet.
      await expect
        .poll(async () => (await db.pool.query("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", [bPid])).rows[0]?.wait_event_type, { timeout: 10_000 })
        .toBe("Lock");
      expect((await readChanges(db.pool, "f1", 0, 10)).changes).toEqual([]);
      await a.query("COMMIT");
      await bAppend;
      // A is visible with id 1; B (not yet committed) holds id 2 and is invisible.
      expect((await readChanges(db.pool, "f1", 0, 10)).changes.map((c) => [c.id, c.recordId])).toEqual([[1, "a"]]);
      await b.query("ROLLBACK");
      // B rolled back: the next writer gets id 2, not 3.
      await a.query("BEGIN");
      await appendChanges(a, [change("c"), change("d")]);
      await a.query("COMMIT");
      const page = await readChanges(db.pool, "f1", 0, 10);
      expect(page.changes.map((c) => [c.id, c.recordId])).toEqual([
        [1, "a"],
        [2, "c"],
        [3, "d"],
      ]);
      expect(page.head).toBe(3);
    } finally {
      a.release();
      b.release();
    }
  });
});
