/**
 * The stored ticket stock on PostgreSQL: the shared property test (with two storages of
 * their own pools writing at once, as two processes), and the fill of a database written
 * before the stock existed (the migration's request, answered under the migration lock).
 */
import { runTicketStockPropertyTests, storeFillTickets } from "@records-service/sql/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

describe.skipIf(!inject("pgAvailable"))("postgres ticket stock", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  runTicketStockPropertyTests({
    name: "postgres",
    create: () => db.emptyStorage(),
    createTwo: async () => [await db.emptyStorage(), await createPostgresStorage({ url: db.url }, { migrate: false })],
    runs: 30,
    timeoutMs: 300_000,
  });

  it("is filled from the stored tickets when the migration asks, once", async () => {
    const storage = await db.emptyStorage();
    const { booking, expected } = await storeFillTickets(storage).finally(() => storage.close());
    // As a database of the version before: no stock kept, and the migration's request pending.
    await db.pool.query("DELETE FROM ticket_stock; INSERT INTO ticket_stock_backfill (pending) VALUES (1)");
    const reopened = await createPostgresStorage({ url: db.url });
    try {
      expect(await reopened.listTicketStock("alpha", [booking])).toEqual(expected);
      expect((await db.pool.query("SELECT count(*)::int AS n FROM ticket_stock_backfill")).rows).toEqual([{ n: 0 }]);
    } finally {
      await reopened.close();
    }
  });
});
