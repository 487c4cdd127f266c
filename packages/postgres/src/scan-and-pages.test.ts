/**
 * The special paths of the shared compiler on PostgreSQL, as the SQLite adapter tests them:
 * a scan with a tiny window crosses stretches without a match (and other collections'
 * rids) in empty steps and still visits every match once, in order; the equality page and
 * the count from the value index give a record holding one text under two kinds once,
 * and show deleted records only when asked. A page past `maxDataLength` is cut by the server,
 * not sent whole.
 */
import { parseListQuery } from "@records-service/core";
import {
  equalityPageRecords,
  equalityPageTests,
  expectScanWindowWalk,
  insertsOf,
  SCAN_WINDOW_CASES,
  scanWindowRecords,
  testRecord,
} from "@records-service/sql/testing";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createCatalog } from "./catalog.js";
import { exec } from "./exec.js";
import { upToDataLength } from "./read.js";
import { createScanner } from "./scan.js";
import { useTestStorage } from "../test/test-storage.js";

describe.skipIf(!inject("pgAvailable"))("scans and equality pages (PostgreSQL)", () => {
  const t = useTestStorage();

  it.each(SCAN_WINDOW_CASES)("a scan with a window of 5 rids: ?$qs", async ({ qs, expected }) => {
    await t.storage.close();
    t.storage = await t.db.emptyStorage();
    await t.storage.apply({ records: insertsOf(scanWindowRecords()) });
    const scan = createScanner(t.db.pool, createCatalog(), 5);
    await expectScanWindowWalk((q, cursor) => scan("f1", "person", q, cursor, 2), qs, expected);
  });

  describe("equality pages and counts", () => {
    beforeAll(async () => {
      await t.storage.close();
      t.storage = await t.db.emptyStorage();
      await t.storage.apply({ records: insertsOf(equalityPageRecords("f1")) });
    });

    equalityPageTests((query) => t.storage.listRecords("f1", "thing", query));
  });

  it("cut a page of large records on the server soon after maxDataLength", async () => {
    t.storage = await t.db.emptyStorage();
    const big = [...Array(40).keys()].map((n) => testRecord(n + 1, "big", { t: "x".repeat(10_000) }));
    await t.storage.apply({ records: insertsOf(big) });
    const page = upToDataLength(sql`SELECT r.data FROM records r ORDER BY r.rid LIMIT 40`, 25_000);
    // Two rows fit, the third passes the budget and one more is kept for the caller's check.
    expect((await exec(t.db.pool, page)).rows).toHaveLength(4);
    const query = { ...parseListQuery(new URLSearchParams("page_size=40"), { surface: "v1", now: new Date() }), maxDataLength: 25_000 };
    await expect(t.storage.listRecords("f1", "big", query)).rejects.toMatchObject({ message: "answer too large" });
  });
});
