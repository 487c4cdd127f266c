/**
 * The SQLite registry's own statements: a row's progress, reported for every row in one
 * statement (the shared case of `@records-service/sql/testing`).
 */
import { expectFieldIndexProgress } from "@records-service/sql/testing";
import { describe, it } from "vitest";
import { createSqliteStorage } from "./driver.js";

describe("the index registry on SQLite", () => {
  it("reports a row's progress: the share of its collections' records walked", async () => {
    const storage = createSqliteStorage({ path: ":memory:" });
    try {
      await expectFieldIndexProgress(storage);
    } finally {
      await storage.close();
    }
  });
});
