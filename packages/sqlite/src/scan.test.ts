/**
 * The SQLite scan's own concern: the bounded window. With a tiny window, a walk crosses
 * stretches with no match (and rids of other collections) in empty steps, and still
 * visits every match once, in order, with the probe form of every kind of filter.
 */
import { expectScanWindowWalk, insertsOf, SCAN_WINDOW_CASES, scanWindowRecords } from "@records-service/sql/testing";
import { describe, it } from "vitest";
import { createCatalog } from "./catalog.js";
import { openDatabase } from "./open.js";
import { createScanner } from "./scan.js";
import { createApplier } from "./write.js";

describe("scanRecords with a small window", () => {
  it.each(SCAN_WINDOW_CASES)("?$qs", async ({ qs, expected }) => {
    const db = openDatabase({ path: ":memory:" });
    const catalog = createCatalog(db.$client);
    createApplier(db, catalog)({ records: insertsOf(scanWindowRecords()) });
    const scan = createScanner(db, catalog, 5);
    await expectScanWindowWalk((q, cursor) => scan("f1", "person", q, cursor, 2), qs, expected);
    db.$client.close();
  });
});
