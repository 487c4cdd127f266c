/**
 * @module storage/conformance-outbox
 * Conformance tests of the outbox: jobs are queued with `apply` (all or nothing with the
 * records), claimed earliest-due first, finished together with their changes, and listed
 * newest first for operators.
 */
import { expect } from "vitest";
import { F1, F2, rec, seedFlocks, stamp, testId, type Harness } from "./conformance-fixtures.js";
import type { OutboxJob } from "./types.js";

/** A pending job numbered `n`, due at `stamp(due)`. */
export function job(n: number, due: number, over: Partial<OutboxJob> = {}): OutboxJob {
  return {
    id: testId(n, "c"),
    flock: F1,
    dataEventId: testId(n, "e"),
    trigger: "contact_created",
    action: "send-json-webhook",
    deliveryId: testId(n, "c"),
    status: "pending",
    attempts: 0,
    nextAttemptAt: stamp(due),
    firstAttemptAt: null,
    lastError: null,
    lastStatus: null,
    body: null,
    created: stamp(0),
    ...over,
  };
}

/** Declares the outbox group. */
export function describeOutbox(h: Harness): void {
  h.group("outbox", () => {
    h.it("claims due pending jobs, earliest first, ties by id, up to the limit", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(3, 20), job(1, 30), job(2, 20), job(4, 50), job(5, 10, { status: "done" })] });
      const due = await s.claimDueJobs(stamp(30), 10);
      expect(due.map((j) => j.id)).toEqual([testId(2, "c"), testId(3, "c"), testId(1, "c")]);
      expect(due[0]).toEqual(job(2, 20));
      expect((await s.claimDueJobs(stamp(30), 2)).map((j) => j.id)).toEqual([testId(2, "c"), testId(3, "c")]);
      expect(await s.claimDueJobs(stamp(9), 10)).toEqual([]);
      expect(await s.claimDueJobs(stamp(30), 0)).toEqual([]);
    });

    h.it("queues jobs in the same transaction as the records: a conflict applies neither", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ records: [{ kind: "insert", record: rec(1, {}) }] });
      await expect(
        s.apply({ records: [{ kind: "insert", record: rec(1, {}) }], outbox: [job(1, 0)] }),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.claimDueJobs(stamp(100), 10)).toEqual([]);
      await s.apply({ records: [{ kind: "insert", record: rec(2, {}) }], outbox: [job(1, 0)] });
      expect(await s.claimDueJobs(stamp(100), 10)).toHaveLength(1);
    });

    h.it("refuses a job id that exists, applying nothing", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(1, 0)] });
      await expect(s.apply({ records: [{ kind: "insert", record: rec(1, {}) }], outbox: [job(1, 5)] })).rejects.toMatchObject({
        code: "conflict",
      });
      expect(await s.getRecord(F1, "thing", testId(1))).toBeUndefined();
      await expect(s.apply({ outbox: [job(2, 0), job(2, 0)] })).rejects.toMatchObject({ code: "conflict" });
      expect(await s.listJobs({})).toHaveLength(1);
    });

    h.it("finishJob records the outcome and applies its changes together", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const event = rec(1, { name: "contact_created", tags: [] }, { type: "data_event" });
      await s.apply({ records: [{ kind: "insert", record: event }], outbox: [job(1, 0)] });
      const tagged = { ...event, data: { ...event.data, tags: ["send-json-webhook"] }, version: 2 };
      await s.finishJob(
        testId(1, "c"),
        { status: "done", attempts: 1, nextAttemptAt: stamp(5), firstAttemptAt: stamp(5), lastError: null, lastStatus: 200 },
        { records: [{ kind: "update", record: tagged, expectedVersion: 1 }] },
      );
      expect((await s.getRecord(F1, "data_event", event.id))?.data.tags).toEqual(["send-json-webhook"]);
      const [done] = await s.listJobs({});
      expect(done).toEqual({
        ...job(1, 5),
        status: "done",
        attempts: 1,
        firstAttemptAt: stamp(5),
        lastStatus: 200,
      });
      expect(await s.claimDueJobs(stamp(100), 10)).toEqual([]);
    });

    h.it("finishJob with conflicting changes rolls back the job update too", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const event = rec(1, { name: "contact_created", tags: [] }, { type: "data_event" });
      await s.apply({ records: [{ kind: "insert", record: event }], outbox: [job(1, 0)] });
      const stale = { ...event, data: { ...event.data, tags: ["send-json-webhook"] }, version: 3 };
      await expect(
        s.finishJob(
          testId(1, "c"),
          { status: "done", attempts: 1, nextAttemptAt: stamp(5), firstAttemptAt: stamp(5), lastError: null },
          { records: [{ kind: "update", record: stale, expectedVersion: 2 }] },
        ),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.claimDueJobs(stamp(100), 10)).toEqual([job(1, 0)]);
      expect((await s.getRecord(F1, "data_event", event.id))?.data.tags).toEqual([]);
    });

    h.it("finishJob schedules a retry; an unknown job is not_found", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(1, 0)] });
      const retry = { status: "pending" as const, attempts: 1, nextAttemptAt: stamp(60), firstAttemptAt: stamp(1), lastError: "HTTP 503", lastStatus: 503 };
      await s.finishJob(testId(1, "c"), retry);
      expect(await s.claimDueJobs(stamp(59), 10)).toEqual([]);
      expect(await s.claimDueJobs(stamp(60), 10)).toEqual([{ ...job(1, 0), ...retry }]);
      await s.finishJob(testId(1, "c"), { ...retry, body: '{"a":1}' });
      expect((await s.listJobs({}))[0]?.body).toBe('{"a":1}');
      await s.finishJob(testId(1, "c"), { ...retry, status: "dead", lastStatus: undefined });
      const [dead] = await s.listJobs({});
      expect(dead?.lastStatus).toBeNull();
      expect(dead?.body).toBe('{"a":1}');
      expect(await s.claimDueJobs(stamp(100), 10)).toEqual([]);
      await expect(s.finishJob(testId(9, "c"), retry)).rejects.toMatchObject({ code: "not_found" });
    });

    h.it("lists jobs newest first, by flock and status, up to the limit", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(1, 0), job(2, 0, { flock: F2 }), job(3, 0, { status: "dead" })] });
      await s.apply({ outbox: [job(4, 0)] });
      const ids = (js: OutboxJob[]) => js.map((j) => j.id);
      expect(ids(await s.listJobs({}))).toEqual([4, 3, 2, 1].map((n) => testId(n, "c")));
      expect(ids(await s.listJobs({ flock: F1 }))).toEqual([4, 3, 1].map((n) => testId(n, "c")));
      expect(ids(await s.listJobs({ status: "dead" }))).toEqual([testId(3, "c")]);
      expect(ids(await s.listJobs({ flock: F2, status: "pending" }))).toEqual([testId(2, "c")]);
      expect(ids(await s.listJobs({ limit: 2 }))).toEqual([4, 3].map((n) => testId(n, "c")));
    });
  });
}
