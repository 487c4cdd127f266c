/**
 * @module test/test-storage
 * One fresh test database per describe block with an empty Storage on it: made in
 * `beforeAll`, the storage closed and the database dropped in `afterAll`.
 */
import type { Storage } from "@records-service/core";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "../src/testing.js";

/** What `useTestStorage` fills in before the tests run; a test may replace `storage` (it is closed at the end). */
export interface TestStorage {
  db: TestDatabase;
  storage: Storage;
}

/** Registers the hooks in the calling describe block; read `db` and `storage` in tests and hooks, not at collection. */
export function useTestStorage(): TestStorage {
  const t = {} as TestStorage;
  beforeAll(async () => {
    t.db = await createTestDatabase();
    t.storage = await t.db.emptyStorage();
  });
  afterAll(async () => {
    await t.storage?.close();
    await t.db?.drop();
  });
  return t;
}
