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

    h.it("an update that gives a data event a key another holds is a conflict; keeping its own key is not", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const [a, b] = [event(1, "k1"), event(2, "k2")];
      await s.apply({ records: [{ kind: "insert", record: a }, { kind: "insert", record: b }] });
      const taken = { ...b, data: { ...b.data, dedupe_key: "k1" }, version: 2 };
      await expect(s.apply({ records: [{ kind: "update", record: taken, expectedVersion: 1, changed: ["dedupe_key"] }] })).rejects.toMatchObject({ code: "conflict" });
      const kept = { ...a, data: { ...a.data, name: "expiring_4wk" }, version: 2 };
      await s.apply({ records: [{ kind: "update", record: kept, expectedVersion: 1, changed: ["name"] }] });
      expect((await s.getRecord(F1, "data_event", b.id))?.data.dedupe_key).toBe("k2");
      expect((await s.getRecord(F1, "data_event", a.id))?.data.name).toBe("expiring_4wk");
    });

    h.it("holds only a data event's text key: another type's dedupe_key field, or a key that is not text, is just data", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const thing = (n: number) => rec(n, { dedupe_key: "k1" });
      const numbered = (n: number) => rec(n, { name: "expiring_2wk", dedupe_key: 7 }, { type: "data_event" });
      await s.apply({ records: [1, 2].map((n) => ({ kind: "insert" as const, record: thing(n) })) });
      await s.apply({ records: [3, 4].map((n) => ({ kind: "insert" as const, record: numbered(n) })) });
      await s.apply({ records: [{ kind: "insert", record: event(5, "k1") }] });
      expect((await s.getRecords(F1, [1, 2].map((n) => ({ type: "thing", id: testId(n) })))).map((r) => r.data.dedupe_key)).toEqual(["k1", "k1"]);
      expect((await s.getRecords(F1, [3, 4].map((n) => ({ type: "data_event", id: testId(n) })))).map((r) => r.data.dedupe_key)).toEqual([7, 7]);
    });

    h.it("keeps every key exactly, a NUL or a lone surrogate in it or beside it in the data", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const odd = (n: number, key: string) => rec(n, { name: "expiring_2wk", dedupe_key: key, note: "a\u0000b\ud800" }, { type: "data_event" });
      await s.apply({ records: [odd(1, "k\u0000x"), odd(2, "k\ud800"), odd(3, "k\udbff"), odd(4, "k")].map((record) => ({ kind: "insert" as const, record })) });
      for (const [n, key] of [[5, "k\u0000x"], [6, "k\ud800"]] as const) {
        await expect(s.apply({ records: [{ kind: "insert", record: odd(n, key) }] })).rejects.toMatchObject({ code: "conflict" });
      }
      const stored = await s.getRecords(F1, [1, 2, 3, 4].map((n) => ({ type: "data_event", id: testId(n) })));
      expect(stored.map((r) => [r.data.dedupe_key, r.data.note])).toEqual([
        ["k\u0000x", "a\u0000b\ud800"],
        ["k\ud800", "a\u0000b\ud800"],
        ["k\udbff", "a\u0000b\ud800"],
        ["k", "a\u0000b\ud800"],
      ]);
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
