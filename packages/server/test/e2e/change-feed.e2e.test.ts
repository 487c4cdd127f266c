/**
 * The change feed end to end on a SQLite file: two real `serve` processes, 4 writers, two
 * disconnects and one restart (see change-feed-run). Every change arrives once, in order.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkFeedRun } from "./change-feed-check.js";
import { runFeedScenario } from "./change-feed-run.js";
import { killAll } from "./spawn-cli.js";

describe("change feed across processes and a restart (SQLite file)", () => {
  afterAll(() => killAll());

  it("1,000 writes by 4 writers arrive exactly once, in commit order", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "feed-sqlite-")), "records.db");
    const run = await runFeedScenario(db);
    checkFeedRun(run, expect);
  }, 180_000);
});
