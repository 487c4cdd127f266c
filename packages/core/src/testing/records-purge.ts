/**
 * @module testing/records-purge
 * Conformance of `deleteRecords` (the scheduler's purge of expired data events), which
 * must leave no trace of a removed record in any read: get, list, filters, references,
 * summaries, files, jobs.
 */
import { expect } from "vitest";
import { F1, F2, flt, idsOf, insertAll, query, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { StoredFile } from "../model/file.js";
import type { OutboxJob } from "../model/outbox.js";

/** Declares the purge tests. */
export function describeDeleteRecords(h: Harness): void {
  h.group("deleteRecords", () => {
    const event = (n: number, data: Record<string, unknown>, over = {}) => rec(n, data, { type: "data_event", ...over });

    h.it("removes the named records of that flock and type only, and counts them", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await insertAll(s, [
        event(1, { name: "x" }),
        event(2, { name: "x" }, { state: "deleted" }),
        event(3, { name: "x" }),
        rec(4, { name: "x" }), // another type
        event(5, { name: "x" }, { flock: F2 }),
      ]);
      const removed = await s.deleteRecords(F1, "data_event", [testId(1), testId(2), testId(4), testId(5), testId(9), testId(1)]);
      expect(removed).toBe(2);
      expect(await s.getRecord(F1, "data_event", testId(1))).toBeUndefined();
      expect(await s.getRecord(F1, "data_event", testId(2))).toBeUndefined();
      expect(await s.getRecord(F1, "data_event", testId(3))).toBeDefined();
      expect(await s.getRecord(F1, "thing", testId(4))).toBeDefined();
      expect(await s.getRecord(F2, "data_event", testId(5))).toBeDefined();
      expect(await s.deleteRecords(F1, "data_event", [])).toBe(0);
    });

    h.it("leaves nothing behind in lists, filters, references and summaries", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const target = `/${F1}/member/${testId(50)}/`;
      await insertAll(s, [
        event(1, { name: "lapsed_1d", context_ref: target, expires_at: stamp(10), tags: ["a"] }),
        event(2, { name: "lapsed_1d", context_ref: target, expires_at: stamp(99), tags: ["a"] }),
      ]);
      await s.deleteRecords(F1, "data_event", [testId(1)]);
      const all = await s.listRecords(F1, "data_event", query([], { states: ["updated", "deleted"] }));
      expect({ total: all.total, ids: idsOf(all.records) }).toEqual({ total: 1, ids: [testId(2)] });
      const expired = await s.listRecords(F1, "data_event", query([flt("expires_at", "lte", stamp(50))]));
      expect(expired.total).toBe(0);
      const tagged = await s.listRecords(F1, "data_event", query([flt("tags", "eq", "a")]));
      expect(idsOf(tagged.records)).toEqual([testId(2)]);
      // A data event is found by its context_ref, never as a reference (listReferencing).
      const about = await s.listRecords(F1, "data_event", query([flt("context_ref", "eq", target)]));
      expect(idsOf(about.records)).toEqual([testId(2)]);
      expect(await s.listReferencing(F1, target, 10)).toEqual([]);
      expect((await s.summarizeTypes(F1)).find((t) => t.name === "data_event")?.count).toBe(1);
    });

    h.it("frees the id and removes the record's files", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const file: StoredFile = {
        id: "f000000000000000000000aa",
        flock: F1,
        recordType: "data_event",
        recordId: testId(1),
        field: "files",
        filename: "a.txt",
        contentType: "text/plain",
        bytes: new Uint8Array([1, 2, 3]),
        created: stamp(1),
      };
      await s.apply({ records: [{ kind: "insert", record: event(1, { name: "x" }) }], files: [file] });
      expect(await s.deleteRecords(F1, "data_event", [testId(1)])).toBe(1);
      expect(await s.getFile(F1, file.id)).toBeUndefined();
      await insertAll(s, [event(1, { name: "again" })]);
      expect((await s.getRecord(F1, "data_event", testId(1)))?.data).toEqual({ name: "again" });
    });

    h.it("removes the outbox jobs of the removed data events", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const job = (n: number, dataEventId: string): OutboxJob => ({
        id: testId(n, "b"),
        flock: F1,
        dataEventId,
        trigger: "lapsed_1d",
        action: "send-json-webhook",
        deliveryId: testId(n, "c"),
        status: "done",
        attempts: 1,
        nextAttemptAt: stamp(n),
        firstAttemptAt: stamp(n),
        lastError: null,
        lastStatus: 200,
        created: stamp(n),
      });
      await s.apply({
        records: [
          { kind: "insert", record: event(1, { name: "lapsed_1d" }) },
          { kind: "insert", record: event(2, { name: "lapsed_1d" }) },
        ],
        outbox: [job(1, testId(1)), job(2, testId(2))],
      });
      await s.deleteRecords(F1, "data_event", [testId(1)]);
      expect((await s.listJobs({ flock: F1 })).map((j) => j.id)).toEqual([testId(2, "b")]);
    });
  });
}
