/**
 * A deadlock between two processes' transactions is no client's problem: the transaction
 * PostgreSQL picks as the victim is rolled back and run again, and both commit.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exec, isLockConflict, transaction } from "./exec.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

describe.skipIf(!inject("pgAvailable"))("transaction on PostgreSQL under lock conflicts", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query("CREATE TABLE pair (k text PRIMARY KEY, n int NOT NULL)");
    await db.pool.query("INSERT INTO pair VALUES ('a', 0), ('b', 0)");
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("runs the deadlock's victim again: both transactions commit, each once", async () => {
    // Each transaction locks its first row, waits until the other has locked its own, then
    // asks for the other's row: a deadlock on the first attempt.
    let locked = 0;
    const bothLocked = async () => {
      locked += 1;
      while (locked < 2) await new Promise((r) => setTimeout(r, 5));
    };
    let attempts = 0;
    const bump = (first: string, second: string) =>
      transaction(db.pool, async (c) => {
        attempts += 1;
        await exec(c, sql`UPDATE pair SET n = n + 1 WHERE k = ${first}`);
        await bothLocked();
        await exec(c, sql`UPDATE pair SET n = n + 1 WHERE k = ${second}`);
      });
    await Promise.all([bump("a", "b"), bump("b", "a")]);
    // One first attempt each, and at least one run again. PostgreSQL may pick a victim more
    // than once when both deadlock checks run at the same time under load, so the count of
    // retries is bounded, not exact: what must hold is that each transaction committed once.
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(attempts).toBeLessThanOrEqual(10);
    const { rows } = await db.pool.query<{ k: string; n: number }>("SELECT k, n FROM pair ORDER BY k");
    expect(rows).toEqual([
      { k: "a", n: 2 },
      { k: "b", n: 2 },
    ]);
  }, 30_000);

  it("knows the codes worth a retry", () => {
    expect(isLockConflict({ code: "40P01" })).toBe(true);
    expect(isLockConflict({ code: "40001" })).toBe(true);
    expect(isLockConflict({ code: "23505" })).toBe(false);
    expect(isLockConflict(undefined)).toBe(false);
  });
});
