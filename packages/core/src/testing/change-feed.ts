/**
 * @module testing/change-feed
 * Conformance of the change log behind the change feed: one row per record write, written
 * with it (nothing for a rolled-back set), ids per flock 1, 2, 3 ... with no gap, the type
 * filter, and the purge that keeps the kept ids contiguous. With two Storages on one
 * database, concurrent writers still get one unbroken sequence.
 */
import { expect } from "vitest";
import { F1, F2, insertAll, pendingJob, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { ChangeRow } from "../model/change.js";
import type { StoredRecord } from "../model/record.js";
import type { Storage } from "../storage/storage.js";

/** Declares the change log tests. */
export function describeChanges(h: Harness): void {
  h.group("change log", () => {
    h.it("records one row per record write, in order, with the fields that changed", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const a = rec(1, { name: "a", n: 1 });
      await insertAll(s, [a, rec(2, { name: "b" }, { type: "other" })]);
      await s.apply({ records: [{ kind: "update", record: { ...a, data: { name: "a", n: 2 }, version: 2, lastUpdated: stamp(10) }, expectedVersion: 1, changed: ["n"] }] });
      await s.apply({ records: [{ kind: "update", record: { ...a, data: { name: "a", n: 2 }, state: "deleted", version: 3, lastUpdated: stamp(11) }, expectedVersion: 2, changed: [] }] });
      const page = await s.readChanges(F1, 0, 100);
      expect(page.head).toBe(4);
      expect(page.purgedThrough).toBe(0);
      expect(page.changes).toEqual([
        { id: 1, flock: F1, type: "thing", recordId: testId(1), state: "updated", version: 1, changedAt: stamp(1), fields: ["name", "n"], actor: null, application: null },
        { id: 2, flock: F1, type: "other", recordId: testId(2), state: "updated", version: 1, changedAt: stamp(2), fields: ["name"], actor: null, application: null },
        { id: 3, flock: F1, type: "thing", recordId: testId(1), state: "updated", version: 2, changedAt: stamp(10), fields: ["n"], actor: null, application: null },
        { id: 4, flock: F1, type: "thing", recordId: testId(1), state: "deleted", version: 3, changedAt: stamp(11), fields: [], actor: null, application: null },
      ]);
    });

    h.it("logs an update's fields as the write names them (the engine decides, once)", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const a = rec(1, { a: { x: 1, y: 2 }, n: 1 });
      await insertAll(s, [a]);
      // The object's keys come back in another order and n changes: the engine names only n.
      const next = { ...a, data: { a: { y: 2, x: 1 }, n: 2 }, version: 2, lastUpdated: stamp(10) };
      await s.apply({ records: [{ kind: "update", record: next, expectedVersion: 1, changed: ["n"] }] });
      expect((await s.readChanges(F1, 0, 100)).changes.map((c) => c.fields)).toEqual([["a", "n"], ["n"]]);
      expect(await s.getRecord(F1, "thing", a.id)).toEqual(next);
    });

    h.it("numbers each flock on its own; after, limit and types select", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { x: 1 }), rec(2, { x: 1 }, { flock: F2 }), rec(3, { x: 1 }, { type: "other" }), rec(4, { x: 1 })]);
      expect(_ids((await s.readChanges(F1, 0, 100)).changes)).toEqual([1, 2, 3]);
      expect((await s.readChanges(F2, 0, 100)).changes.map((c) => [c.id, c.recordId])).toEqual([[1, testId(2)]]);
      expect(_ids((await s.readChanges(F1, 1, 1)).changes)).toEqual([2]);
      const things = await s.readChanges(F1, 0, 100, ["thing"]);
      expect(things.changes.map((c) => c.recordId)).toEqual([testId(1), testId(4)]);
      expect(things.head).toBe(3);
      expect(await s.readChanges("nope", 0, 100)).toEqual({ changes: [], head: 0, purgedThrough: 0 });
      expect((await s.readChanges(F1, 3, 100)).changes).toEqual([]);
    });

    h.it("types: several types merge in id order, at most limit, duplicates once; a short page reaches the head", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const types = ["a", "b", "c", "a", "b", "c", "other", "a"];
      await insertAll(s, types.map((type, i) => rec(i + 1, { i }, { type })));
      const ab = await s.readChanges(F1, 0, 100, ["b", "a", "a"]);
      expect(_ids(ab.changes)).toEqual([1, 2, 4, 5, 8]);
      expect(ab.head).toBe(8);
      expect(_ids((await s.readChanges(F1, 0, 3, ["a", "b"])).changes)).toEqual([1, 2, 4]);
      expect(_ids((await s.readChanges(F1, 4, 2, ["c", "a"])).changes)).toEqual([6, 8]);
      // Nothing of the type after 8: an empty page with the head, so a reader may move there.
      const none = await s.readChanges(F1, 0, 100, ["nothing"]);
      expect(none).toEqual({ changes: [], head: 8, purgedThrough: 0 });
    });

    h.it("readChangeHeads: the head of each flock asked for that has a log, in one answer", async () => {
      const s = h.storage();
      await seedFlocks(s);
      expect(await s.readChangeHeads([F1, F2])).toEqual(new Map());
      await insertAll(s, [rec(1, { x: 1 }), rec(2, { x: 1 }), rec(3, { x: 1 }, { flock: F2 })]);
      expect(await s.readChangeHeads([F1, F2, "nope", F1])).toEqual(new Map([[F1, 2], [F2, 1]]));
      expect(await s.readChangeHeads([F2])).toEqual(new Map([[F2, 1]]));
      expect(await s.readChangeHeads([])).toEqual(new Map());
    });

    h.it("a change set that fails leaves no row and uses no id", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { x: 1 })]);
      await expect(insertAll(s, [rec(2, { x: 1 }), rec(1, { x: 2 })])).rejects.toMatchObject({ code: "conflict" });
      await insertAll(s, [rec(3, { x: 1 })]);
      const page = await s.readChanges(F1, 0, 100);
      expect(page.changes.map((c) => [c.id, c.recordId])).toEqual([
        [1, testId(1)],
        [2, testId(3)],
      ]);
    });

    h.it("finishJob's changes are logged with it", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const event = rec(1, { name: "x", tags: [] }, { type: "data_event" });
      const job = pendingJob(event);
      await s.apply({ records: [{ kind: "insert", record: event }], outbox: [job] });
      const tagged: StoredRecord = { ...event, data: { name: "x", tags: ["t"] }, version: 2, lastUpdated: stamp(5) };
      const claim = { token: "conformance-claim-token-1", until: stamp(10) };
      expect(await s.claimDueJobs(stamp(5), 10, claim)).toHaveLength(1);
      await s.finishJob(job.id, claim.token, { status: "done", attempts: 1, nextAttemptAt: stamp(5), firstAttemptAt: stamp(5), lastError: null }, {
        records: [{ kind: "update", record: tagged, expectedVersion: 1, changed: ["tags"] }],
      });
      const page = await s.readChanges(F1, 1, 100);
      expect(page.changes).toEqual([
        { id: 2, flock: F1, type: "data_event", recordId: event.id, state: "updated", version: 2, changedAt: stamp(5), fields: ["tags"], actor: null, application: null },
      ]);
    });

    h.it("purgeChanges drops the oldest rows before a time, keeps ids contiguous and marks the cut", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { x: 1 }), rec(2, { x: 1 }), rec(3, { x: 1 }, { flock: F2, lastUpdated: stamp(2) }), rec(30, { x: 1 })]);
      expect(await s.purgeChanges(stamp(3))).toBe(3);
      const f1 = await s.readChanges(F1, 0, 100);
      expect(f1.purgedThrough).toBe(2);
      expect(_ids(f1.changes)).toEqual([3]);
      expect(f1.head).toBe(3);
      expect((await s.readChanges(F2, 0, 100)).purgedThrough).toBe(1);
      expect(await s.purgeChanges(stamp(3))).toBe(0);
      await insertAll(s, [rec(31, { x: 1 })]);
      expect(_ids((await s.readChanges(F1, 0, 100)).changes)).toEqual([3, 4]);
    });

    h.it("purgeChanges with a limit removes at most that many, the oldest first, flocks in name order", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [rec(1, { x: 1 }), rec(2, { x: 1 }), rec(3, { x: 1 }), rec(4, { x: 1 }, { flock: F2, lastUpdated: stamp(2) }), rec(30, { x: 1 })]);
      expect(await s.purgeChanges(stamp(9), 2)).toBe(2); // F1 ("f1") before F2 ("f2")
      expect((await s.readChanges(F1, 0, 100)).purgedThrough).toBe(2);
      expect((await s.readChanges(F2, 0, 100)).purgedThrough).toBe(0);
      // The next call goes on where the last stopped, across flocks.
      expect(await s.purgeChanges(stamp(9), 2)).toBe(2);
      const f1 = await s.readChanges(F1, 0, 100);
      expect(f1.purgedThrough).toBe(3);
      expect(_ids(f1.changes)).toEqual([4]);
      expect((await s.readChanges(F2, 0, 100)).purgedThrough).toBe(1);
      expect(await s.purgeChanges(stamp(9), 2)).toBe(0);
      expect(await s.purgeChanges(stamp(9), 0)).toBe(0);
    });

    h.it("purgeChanges with a limit cuts at the last old change among the next `limit` only", async () => {
      const s = h.storage();
      await seedFlocks(s);
      // Ids 1, 2, 3 changed at times 1, 50, 2: an old time behind a newer one.
      await insertAll(s, [rec(1, { x: 1 }), rec(50, { x: 1 }), rec(2, { x: 1 })]);
      expect(await s.purgeChanges(stamp(10), 1)).toBe(1);
      expect(await s.purgeChanges(stamp(10), 1)).toBe(0); // id 2 is newer: the purge stops there
      expect((await s.readChanges(F1, 0, 100)).purgedThrough).toBe(1);
      expect(await s.purgeChanges(stamp(10))).toBe(2); // without a limit, up to the last old change
      expect((await s.readChanges(F1, 0, 100)).purgedThrough).toBe(3);
    });
  });

  h.shared("change log across two Storages on one database", (open) => {
    h.it("concurrent writers in two Storages get ids 1..n, each seen by both", async () => {
      const [a, b] = await open();
      await seedFlocks(a);
      const writes: Promise<void>[] = [];
      for (let i = 1; i <= 40; i++) writes.push(insertAll(i % 2 ? a : b, [rec(i, { i })]));
      // A reader polling meanwhile must only ever see a prefix of the sequence.
      const seen: number[] = [];
      const reading = (async () => {
        while (seen.length < 40) {
          const page = await (seen.length % 2 ? b : a).readChanges(F1, seen.at(-1) ?? 0, 7);
          for (const c of page.changes) seen.push(c.id);
          // Nothing new yet: let the writers run (an adapter may commit on a later turn).
          if (page.changes.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        }
      })();
      await Promise.all(writes);
      await reading;
      expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      const all = await b.readChanges(F1, 0, 100);
      expect(new Set(all.changes.map((c) => c.recordId)).size).toBe(40);
    });
  });
}

// --- internal ---

function _ids(rows: readonly ChangeRow[]): number[] {
  return rows.map((c) => c.id);
}
