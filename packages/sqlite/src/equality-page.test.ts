/**
 * The equality page (compileEqualityPage) and the count from `record_values` alone answer
 * what the general statements answer, in the cases they special-case: one record holding
 * the same text under two kinds comes once, deleted records are left out or shown as asked.
 */
import { equalityPageRecords, equalityPageTests, insertsOf } from "@records-service/sql/testing";
import { afterAll, describe } from "vitest";
import { createSqliteStorage } from "./driver.js";

const storage = createSqliteStorage({ path: ":memory:" });
afterAll(() => storage.close());

await storage.apply({ records: insertsOf(equalityPageRecords("demo")) });

describe("equality pages and counts", () => {
  equalityPageTests((query) => storage.listRecords("demo", "thing", query));
});
