/**
 * End to end: 2 and 3 real `serve` processes on one PostgreSQL database share the outbox,
 * the scheduler and the tasks (issue 10, points 2 to 4): the scenarios of
 * ../e2e/scaleout.ts, each on a fresh database dropped after the file.
 */
import { createPostgresStorage } from "@records-service/postgres";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { afterAll, describe, inject } from "vitest";
import { scaleOutScenarios } from "../e2e/scaleout.js";

const made: TestDatabase[] = [];
afterAll(async () => {
  for (const db of made) await db.drop();
});

describe.skipIf(!inject("pgAvailable"))("several processes on one PostgreSQL database", () => {
  scaleOutScenarios({
    bulkPersons: 4_000,
    async fresh() {
      const db = await createTestDatabase();
      made.push(db);
      await db.pool.end();
      return { arg: db.url, open: () => createPostgresStorage({ url: db.url }, { migrate: true }) };
    },
  });
});
