/**
 * The PostgreSQL Storage: the core conformance suite, unchanged, on a fresh database (with
 * a linguistic default collation where the server has ICU), with its shared-database tests
 * on two Storages with pools of their own (as two processes), plus the shared property
 * test of the query compiler against core's reference evaluator.
 */
import { runStorageTests } from "@records-service/core/testing";
import { runQueryPropertyTests } from "@records-service/sql/testing";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

describe.skipIf(!inject("pgAvailable"))("postgres", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  runStorageTests({
    name: "postgres",
    create: () => db.emptyStorage(),
    // Each with its own pool and change watch; the first empties the database.
    openShared: async () => [await db.emptyStorage(), await createPostgresStorage({ url: db.url }, { migrate: false })],
  });
  // A fixed amount of work (seeded cases): 50 to 85 s alone on a loaded 2-core machine, more
  // beside other suites. The bound only catches a hang; a run cut short by it would go on
  // writing into the shared database and fail the next tests with "record exists".
  runQueryPropertyTests({ name: "postgres", create: () => db.emptyStorage(), timeoutMs: 600_000 });
});
