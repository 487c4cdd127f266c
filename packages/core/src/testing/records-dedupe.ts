/**
 * @module testing/records-dedupe
 * Conformance of the one data event per dedupe key and flock that `apply` keeps: a second
 * one is a conflict that applies nothing, also when two Storages on one database insert
 * it at once.
 */
import { expect } from "vitest";
import { F1, F2, job, rec, seedFlocks, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";

/** Declares the dedupe-key tests. */
export function describeDedupeKeys(h: Harness): void {
  h.group("dedupe keys", () => {
    const event = (n: number, key: string, flock = F1) => rec(n, { name: "expiring_2wk", dedupe_key: key }, { type: "data_event", flock });

    h.it("a flock holds one data event per dedupe key: a second is a conflict and applies nothing", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ records: [{ kind: "insert", record: event(1, "k1") }] });
      await expect(
        s.apply({ records: [{ kind: "insert", record: rec(5, {}) }, { kind: "insert", record: event(2, "k1") }], outbox: [job(2, 0)] }),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.getRecord(F1, "thing", testId(5))).toBeUndefined();
      expect(await s.listJobs({})).toEqual([]);
      await expect(s.apply({ records: [{ kind: "insert", record: event(3, "k2") }, { kind: "insert", record: event(4, "k2") }] })).rejects.toMatchObject({
        code: "conflict",
      });
      // Another flock, another key, or no key at all: fine.
      await s.apply({
        records: [
          { kind: "insert", record: event(6, "k1", F2) },
          { kind: "insert", record: event(7, "k2") },
          { kind: "insert", record: rec(8, { name: "login" }, { type: "data_event" }) },
          { kind: "insert", record: rec(9, { name: "login" }, { type: "data_event" }) },
        ],
      });
      // Purged for good, the key may be used again.
      expect(await s.deleteRecords(F1, "data_event", [testId(1)])).toBe(1);
      await s.apply({ records: [{ kind: "insert", record: event(10, "k1") }] });
    });
  });

  h.shared("dedupe keys across two Storages on one database", (open) => {
    h.it("two Storages emitting the same dedupe key at once store it once", async () => {
      const [a, b] = await open();
      await seedFlocks(a);
      const event = (n: number) => rec(n, { name: "expiring_2wk", dedupe_key: "same" }, { type: "data_event" });
      const outcomes = await Promise.allSettled([
        a.apply({ records: [{ kind: "insert", record: event(1) }] }),
        b.apply({ records: [{ kind: "insert", record: event(2) }] }),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const rejected = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ code: "conflict" });
      const page = await b.listRecords(F1, "data_event", { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 10 });
      expect(page.total).toBe(1);
    });
  });
}
