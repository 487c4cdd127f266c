/**
 * The change feed end to end on PostgreSQL: two real `serve` processes on one database,
 * 4 writers, two disconnects and one restart (see e2e/change-feed-run). Concurrent
 * transactions commit out of order here, which per-flock ids taken under the head's row
 * lock must survive: every change arrives once, in commit order.
 */
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { checkFeedRun } from "../e2e/change-feed-check.js";
import { runFeedScenario } from "../e2e/change-feed-run.js";
import { killAll } from "../e2e/spawn-cli.js";

describe.skipIf(!inject("pgAvailable"))("change feed across processes and a restart (PostgreSQL)", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    killAll();
    await db?.drop();
  });

  it("1,000 writes by 4 writers arrive exactly once, in commit order", async () => {
    const run = await runFeedScenario(db.url);
    checkFeedRun(run, expect);
  }, 180_000);
});
