import { describe, expect, it } from "vitest";
import { rejection, START_TS } from "../records/test-helpers.js";
import type { StoredRecord } from "../model/record.js";
import { createTask } from "./run.js";
import { summaryOf, taskSetup } from "./test-helpers.js";

const event = (n: number, flock: string, expires_at: string | null): StoredRecord => ({
  id: (0xe00000 + n).toString(16).padStart(24, "0"),
  flock,
  type: "data_event",
  state: "updated",
  data: { name: "login", expires_at },
  displayValue: "",
  created: START_TS,
  lastUpdated: START_TS,
  version: 1,
});

describe("the purge_events task", () => {
  it("removes the flock's expired data events a chunk at a time, and only those", async () => {
    const t = await taskSetup();
    const expired = Array.from({ length: 5 }, (_, i) => event(i, "demo", "2026-01-01T00:00:00.000000"));
    await t.storage.apply({
      records: [...expired, event(10, "demo", "2027-01-01T00:00:00.000000"), event(11, "demo", null), event(12, "other", "2026-01-01T00:00:00.000000")].map(
        (record) => ({ kind: "insert" as const, record }),
      ),
    });
    const task = await createTask(t.engine, "demo", "purge_events", {});
    const done = await t.run(task.id, 2);
    expect(summaryOf(done)).toEqual({ state: "complete", matched: 5, changed: 5, unchanged: 0, errors: 0 });
    expect((await t.all("data_event")).map((r) => r.id)).toEqual([event(10, "demo", null).id, event(11, "demo", null).id]);
    expect(await t.all("data_event", "other")).toHaveLength(1);
  });

  it("takes no parameters", async () => {
    const t = await taskSetup();
    const e = await rejection(createTask(t.engine, "demo", "purge_events", { before: "2026-01-01" }));
    expect([e.code, e.detail]).toEqual(["bad_request", 'purge_events takes no parameters (got "before")']);
  });
});
