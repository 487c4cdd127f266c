/**
 * `storage.poolStats()` on PostgreSQL: the pool's own counts, read synchronously (the error
 * guard around the storage's methods must leave it a plain function), moving with a query
 * that holds a connection.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Storage } from "@records-service/core";
import { createTestDatabase, type TestDatabase } from "./testing.js";

describe.skipIf(!inject("pgAvailable"))("poolStats on PostgreSQL", () => {
  let db: TestDatabase;
  let storage: Storage;
  beforeAll(async () => {
    db = await createTestDatabase();
    storage = await db.emptyStorage();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("counts the pool's connections, in use and idle, and the queries waiting", async () => {
    await storage.listFlocks();
    const idle = storage.poolStats!();
    expect(idle).not.toBeInstanceOf(Promise);
    expect(idle.total).toBeGreaterThanOrEqual(1);
    expect(idle.idle).toBeLessThanOrEqual(idle.total);
    expect(idle.waiting).toBe(0);
    const held = await db.pool.connect();
    try {
      const busy = storage.poolStats!();
      expect(busy.total - busy.idle).toBeGreaterThanOrEqual(1);
    } finally {
      held.release();
    }
  });
});
