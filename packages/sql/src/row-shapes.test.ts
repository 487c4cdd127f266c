import type { OutboxJob } from "@records-service/core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { historyChangeFromRow, oldestChangeWhere } from "./change-history.js";
import { removedByState } from "./change-purge.js";
import { DEFAULT_JOB_LIST_LIMIT, finishOutcome, jobCount, outboxStatsOf, retryOutcome } from "./outbox-rows.js";
import { filterFields, recordFromRow } from "./record-rows.js";

const row = { id: "a1", state: "updated", data: '{"n":1}', displayValue: "A", created: "c", lastUpdated: "u", version: 2 };

describe("row shapes both adapters share", () => {
  it("a record row becomes a stored record, its display value decoded as asked", () => {
    expect(recordFromRow(row, "f", "person")).toEqual({ ...row, flock: "f", type: "person", data: { n: 1 } });
    expect(recordFromRow(row, "f", "person", (t) => t.toLowerCase()).displayValue).toBe("a");
  });

  it("the data fields a query filters on leave out the meta fields", () => {
    const filters = [
      { field: "n", meta: false },
      { field: "created", meta: true },
    ] as never;
    expect(filterFields({ filters })).toEqual(["n"]);
  });

  it("a history row carries its previous state; a record's oldest change is filtered by type and record only", () => {
    const change = { id: "7", type: "person", record_id: "r", state: "updated", version: 2, changed_at: "t", fields: '["n"]', actor: null, application: null };
    expect(historyChangeFromRow("f", { ...change, previous_state: "new" })).toMatchObject({ id: 7, flock: "f", previousState: "new" });
    const where = new SQLiteSyncDialect().sqlToQuery(oldestChangeWhere("f", { type: "person", recordId: "r", from: "x", skip: 5, limit: 9 }));
    expect(where.sql).toBe("c.flock = ? AND c.type = ? AND c.record_id = ?");
    expect(where.params).toEqual(["f", "person", "r"]);
  });

  it("a purge takes each state's removed records off the counts, in state order", () => {
    expect(removedByState(["updated", "deleted", "updated"])).toEqual([
      ["deleted", 1],
      ["updated", 2],
    ]);
    expect(removedByState([])).toEqual([]);
  });

  it("outbox: counts asked for, a retry's and a finish's answers, the stats", () => {
    expect([jobCount(undefined), jobCount(3.9), jobCount(-1), jobCount(undefined, 7)]).toEqual([DEFAULT_JOB_LIST_LIMIT, 3, 0, 7]);
    const job = { id: "j" } as OutboxJob;
    expect([retryOutcome(job, "pending"), retryOutcome(undefined, "pending"), retryOutcome(undefined, "done"), retryOutcome(undefined, undefined)]).toEqual([
      job,
      "claimed",
      undefined,
      undefined,
    ]);
    expect([finishOutcome(true, () => false), finishOutcome(false, () => true), finishOutcome(false, () => false)]).toEqual(["ok", "lost", "missing"]);
    expect(outboxStatsOf([{ status: "pending", n: "2" }, { status: "held", n: 1 }], null)).toEqual({ byStatus: { pending: 2, held: 1 }, oldestDueAt: null });
  });
});
