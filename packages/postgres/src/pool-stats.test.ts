/**
 * `storage.poolStats()` on PostgreSQL: the pool's own counts, read synchronously (the error
 * guard around the storage's methods must leave it a plain function), moving with a query
 * that holds a connection.
 */
import { describe, expect, inject, it } from "vitest";
import { useTestStorage } from "../test/test-storage.js";

describe.skipIf(!inject("pgAvailable"))("poolStats on PostgreSQL", () => {
  const t = useTestStorage();

  it("counts the pool's connections, in use and idle, and the queries waiting", async () => {
    await t.storage.listFlocks();
    const idle = t.storage.poolStats()!;
    expect(idle).not.toBeInstanceOf(Promise);
    expect(idle.total).toBeGreaterThanOrEqual(1);
    expect(idle.idle).toBeLessThanOrEqual(idle.total);
    expect(idle.waiting).toBe(0);
    const held = await t.db.pool.connect();
    try {
      const busy = t.storage.poolStats()!;
      expect(busy.total - busy.idle).toBeGreaterThanOrEqual(1);
    } finally {
      held.release();
    }
  });
});
