/**
 * End to end: 2 and 3 real `serve` processes on one SQLite file share the outbox, the
 * scheduler and the tasks (issue 10, points 2 to 4): see scaleout.ts for the scenarios.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, describe } from "vitest";
import { scaleOutScenarios } from "./scaleout.js";

const dir = mkdtempSync(join(tmpdir(), "records-scaleout-sqlite-"));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("several processes on one SQLite file", () => {
  scaleOutScenarios({
    bulkPersons: 20_000,
    async fresh() {
      const path = join(dir, `db-${++n}.db`);
      return { arg: path, open: async () => createSqliteStorage({ path }) };
    },
  });
});
