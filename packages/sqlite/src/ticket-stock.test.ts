/**
 * The stored ticket stock on SQLite: the shared property test (in memory, and on a file
 * with two storages writing at once, as two processes), and the fill of a file written
 * before the stock existed (the migration's request, answered once at open).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { runTicketStockPropertyTests, storeFillTickets } from "@records-service/sql/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./driver.js";

const dir = mkdtempSync(join(tmpdir(), "records-ticket-stock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

runTicketStockPropertyTests({
  name: "sqlite",
  create: () => createSqliteStorage({ path: ":memory:" }),
  createTwo: async () => {
    const path = join(dir, `two-${files++}.db`);
    return [createSqliteStorage({ path }), createSqliteStorage({ path })];
  },
});

describe("ticket stock of a file written before it existed", () => {
  it("is filled from the stored tickets at the next open, once", async () => {
    const path = join(dir, "before.db");
    const storage = createSqliteStorage({ path });
    const { booking, expected } = await storeFillTickets(storage);
    await storage.close();
    // As a file of the version before: no stock kept, and the migration's request pending.
    const raw = new Database(path);
    raw.exec("DELETE FROM ticket_stock; INSERT INTO ticket_stock_backfill (pending) VALUES (1);");
    raw.close();
    const reopened = createSqliteStorage({ path });
    try {
      expect(await reopened.listTicketStock("alpha", [booking])).toEqual(expected);
      const check = new Database(path, { readonly: true });
      expect(check.prepare("SELECT count(*) AS n FROM ticket_stock_backfill").get()).toEqual({ n: 0 });
      check.close();
    } finally {
      await reopened.close();
    }
  });
});
