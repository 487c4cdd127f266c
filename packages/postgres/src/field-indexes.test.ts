/**
 * The PostgreSQL registry's own statements: a row's progress, reported for every row in one
 * statement (the shared case of `@records-service/sql/testing`).
 */
import { expectFieldIndexProgress } from "@records-service/sql/testing";
import { describe, inject, it } from "vitest";
import { useTestStorage } from "../test/test-storage.js";

describe.skipIf(!inject("pgAvailable"))("the index registry on PostgreSQL", () => {
  const t = useTestStorage();

  it("reports a row's progress: the share of its collections' records walked", async () => {
    await t.storage.close();
    t.storage = await t.db.emptyStorage();
    await expectFieldIndexProgress(t.storage);
  });
});
