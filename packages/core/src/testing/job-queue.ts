/**
 * @module testing/job-queue
 * Conformance tests of the outbox: jobs are queued with `apply` (all or nothing with the
 * records), claimed earliest-due first under a lease that only its token can finish or
 * renew, finished together with their changes, and listed newest first for operators.
 */
import { expect } from "vitest";
import { claim, F1, F2, job, rec, seedFlocks, stamp, testId } from "./fixtures.js";
import type { Harness } from "./harness.js";
import type { OutboxJob } from "../model/outbox.js";

/** `job(n, due)` as a claim lapsing at `stamp(until)` returns it. */
function claimed(n: number, due: number, until = 10_000, over: Partial<OutboxJob> = {}): OutboxJob {
  return job(n, due, { ...over, claimedUntil: stamp(until) });
}

/** Declares the `JobQueue` tests: the outbox on one Storage, and claims across two. */
export function describeJobQueue(h: Harness): void {
  h.group("outbox", () => {
    h.it("claims due pending jobs, earliest first, ties by id, up to the limit", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(3, 20), job(1, 30), job(2, 20), job(4, 50), job(5, 10, { status: "done" })] });
      expect(await s.claimDueJobs(stamp(9), 10, claim(1))).toEqual([]);
      expect(await s.claimDueJobs(stamp(30), 0, claim(1))).toEqual([]);
      expect((await s.claimDueJobs(stamp(30), 2, claim(1))).map((j) => j.id)).toEqual([testId(2, "c"), testId(3, "c")]);
      const due = await s.claimDueJobs(stamp(60), 10, claim(2));
      expect(due).toEqual([claimed(1, 30), claimed(4, 50)]);
      expect((await s.listJobs({ status: "pending" })).map((j) => [j.id, j.claimedUntil])).toEqual(
        [4, 2, 1, 3].map((n) => [testId(n, "c"), stamp(10_000)]),
      );
    });

    h.it("outboxStats counts jobs by status (done left out) and names the earliest pending job due", async () => {
      const s = h.storage();
      await seedFlocks(s);
      expect(await s.outboxStats(stamp(100))).toEqual({ byStatus: {}, oldestDueAt: null });
      await s.apply({
        outbox: [
          job(1, 30),
          job(2, 20, { flock: F2 }),
          job(3, 200),
          job(4, 10, { status: "dead", attempts: 9 }),
          job(5, 5, { status: "done", attempts: 1 }),
        ],
      });
      expect(await s.outboxStats(stamp(100))).toEqual({ byStatus: { pending: 3, dead: 1 }, oldestDueAt: stamp(20) });
      expect((await s.outboxStats(stamp(19))).oldestDueAt).toBeNull();
      // A claimed job is still pending and due: it is waiting on its attempt.
      await s.claimDueJobs(stamp(100), 1, claim(1));
      expect(await s.outboxStats(stamp(100))).toEqual({ byStatus: { pending: 3, dead: 1 }, oldestDueAt: stamp(20) });
    });

    h.it("retryJob makes a pending or dead job due now, leaves a claimed one alone, and knows no done or foreign job", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const dead = { status: "dead" as const, attempts: 9, firstAttemptAt: stamp(1), lastError: "HTTP 500", lastStatus: 500 };
      await s.apply({ outbox: [job(1, 0, dead), job(2, 80), job(3, 0, { status: "done" }), job(4, 80, { flock: F2 })] });
      expect(await s.retryJob(F1, testId(1, "c"), stamp(50))).toEqual(job(1, 50, { ...dead, status: "pending", claimedUntil: null }));
      expect(await s.claimDueJobs(stamp(50), 1, claim(1, 100))).toEqual([job(1, 50, { ...dead, status: "pending", claimedUntil: stamp(100) })]);
      // Claimed until 100: a retry before then changes nothing; after it lapses, the job is due again.
      expect(await s.retryJob(F1, testId(1, "c"), stamp(60))).toBe("claimed");
      expect(await s.finishJob(testId(1, "c"), claim(1).token, { status: "done", attempts: 10, nextAttemptAt: stamp(50), firstAttemptAt: stamp(1), lastError: null, lastStatus: 200 })).toBe(true);
      expect(await s.retryJob(F1, testId(1, "c"), stamp(70))).toBeUndefined();
      expect(await s.retryJob(F1, testId(3, "c"), stamp(70))).toBeUndefined();
      expect(await s.retryJob(F1, testId(4, "c"), stamp(70))).toBeUndefined();
      expect(await s.retryJob(F1, testId(9, "c"), stamp(70))).toBeUndefined();
      expect((await s.retryJob(F1, testId(2, "c"), stamp(70))) as OutboxJob).toMatchObject({ status: "pending", nextAttemptAt: stamp(70) });
    });

    h.it("a job finished as held is not claimed; resumeHeldJobs makes the trigger's held jobs due once, and only those", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const other = { trigger: "contact_updated" };
      await s.apply({ outbox: [job(1, 0), job(2, 0), job(3, 0, other), job(4, 0, { flock: F2 }), job(5, 0, { action: "send-email" })] });
      const why = "trigger contact_created with action send-json-webhook is not configured or not active";
      const held = { status: "held" as const, attempts: 1, nextAttemptAt: stamp(0), firstAttemptAt: stamp(2), lastError: why, lastStatus: 503 };
      const taken = await s.claimDueJobs(stamp(5), 10, claim(1));
      expect(taken).toHaveLength(5);
      for (const j of taken) expect(await s.finishJob(j.id, claim(1).token, held)).toBe(true);
      expect(await s.claimDueJobs(stamp(10_001), 10, claim(2))).toEqual([]);
      expect((await s.listJobs({ status: "held" })).map((j) => j.id)).toEqual([5, 4, 3, 2, 1].map((n) => testId(n, "c")));
      expect((await s.listJobs({ status: "held" }))[0]).toMatchObject({ lastError: why, claimedUntil: null });

      expect(await s.resumeHeldJobs(F1, "contact_created", "send-json-webhook", stamp(20))).toBe(2);
      // A second process resuming the same trigger finds nothing left to resume.
      expect(await s.resumeHeldJobs(F1, "contact_created", "send-json-webhook", stamp(21))).toBe(0);
      expect(await s.resumeHeldJobs(F1, "no_such_trigger", "send-json-webhook", stamp(21))).toBe(0);
      const pending = await s.listJobs({ status: "pending" });
      expect(pending).toEqual([2, 1].map((n) => job(n, 20, { ...held, status: "pending", nextAttemptAt: stamp(20), firstAttemptAt: null })));
      expect((await s.listJobs({ status: "held" })).map((j) => j.id)).toEqual([5, 4, 3].map((n) => testId(n, "c")));
      expect((await s.claimDueJobs(stamp(20), 10, claim(3))).map((j) => j.id)).toEqual([testId(1, "c"), testId(2, "c")]);
      // An operator's retry takes a held job too.
      expect((await s.retryJob(F2, testId(4, "c"), stamp(30))) as OutboxJob).toMatchObject({ status: "pending", nextAttemptAt: stamp(30) });
    });

    h.it("a claimed job is not claimed again until its claim lapses; then its old token is refused", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(1, 0), job(2, 0)] });
      expect(await s.claimDueJobs(stamp(10), 1, claim(1, 100))).toEqual([claimed(1, 0, 100)]);
      expect(await s.claimDueJobs(stamp(99), 10, claim(2, 200))).toEqual([claimed(2, 0, 200)]);
      expect(await s.claimDueJobs(stamp(99), 10, claim(3, 300))).toEqual([]);
      // Lapsed at 100: claimed again, under the new token, with the same delivery id.
      const again = await s.claimDueJobs(stamp(100), 10, claim(3, 300));
      expect(again).toEqual([claimed(1, 0, 300)]);
      expect(again[0]?.deliveryId).toBe(testId(1, "c"));
      const update = { status: "done" as const, attempts: 1, nextAttemptAt: stamp(0), firstAttemptAt: stamp(50), lastError: null, lastStatus: 200 };
      expect(await s.finishJob(testId(1, "c"), claim(1).token, update)).toBe(false);
      expect((await s.listJobs({ status: "pending" })).map((j) => j.id)).toEqual([testId(2, "c"), testId(1, "c")]);
      expect(await s.finishJob(testId(1, "c"), claim(3).token, update)).toBe(true);
      expect((await s.listJobs({ status: "done" }))[0]).toEqual({ ...job(1, 0), ...update });
    });

    h.it("renewJobClaims moves the lapse of the jobs held under the tokens, and only those", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(1, 0), job(2, 0), job(3, 0)] });
      await s.claimDueJobs(stamp(10), 2, claim(1, 100));
      await s.claimDueJobs(stamp(10), 2, claim(2, 100));
      expect(await s.renewJobClaims([claim(1).token, claim(9).token], stamp(500))).toBe(2);
      expect(await s.renewJobClaims([], stamp(600))).toBe(0);
      expect(await s.claimDueJobs(stamp(100), 10, claim(3, 700))).toEqual([claimed(3, 0, 700)]);
      expect(await s.claimDueJobs(stamp(499), 10, claim(4))).toEqual([]);
      expect((await s.claimDueJobs(stamp(500), 10, claim(4))).map((j) => j.id)).toEqual([testId(1, "c"), testId(2, "c")]);
    });

    h.it("finishJob ends the claim unless keepClaim; a retry is claimed again when due", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(1, 0)] });
      await s.claimDueJobs(stamp(1), 10, claim(1));
      expect(await s.finishJob(testId(1, "c"), claim(1).token, { ...job(1, 0), keepClaim: true, body: "{}" })).toBe(true);
      expect((await s.listJobs({}))[0]).toMatchObject({ body: "{}", claimedUntil: stamp(10_000) });
      expect(await s.claimDueJobs(stamp(2), 10, claim(2))).toEqual([]);
      const retry = { status: "pending" as const, attempts: 1, nextAttemptAt: stamp(60), firstAttemptAt: stamp(1), lastError: "HTTP 503", lastStatus: 503 };
      expect(await s.finishJob(testId(1, "c"), claim(1).token, retry)).toBe(true);
      expect((await s.listJobs({}))[0]?.claimedUntil).toBeNull();
      // The claim ended: its token records nothing more.
      expect(await s.finishJob(testId(1, "c"), claim(1).token, { ...retry, status: "dead" })).toBe(false);
      expect(await s.claimDueJobs(stamp(59), 10, claim(2))).toEqual([]);
      expect(await s.claimDueJobs(stamp(60), 10, claim(2))).toEqual([{ ...job(1, 0), ...retry, body: "{}", claimedUntil: stamp(10_000) }]);
    });

    h.it("queues jobs in the same transaction as the records: a conflict applies neither", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ records: [{ kind: "insert", record: rec(1, {}) }] });
      await expect(
        s.apply({ records: [{ kind: "insert", record: rec(1, {}) }], outbox: [job(1, 0)] }),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await s.claimDueJobs(stamp(100), 10, claim(1))).toEqual([]);
      await s.apply({ records: [{ kind: "insert", record: rec(2, {}) }], outbox: [job(1, 0)] });
      expect(await s.claimDueJobs(stamp(100), 10, claim(1))).toHaveLength(1);
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
      await s.claimDueJobs(stamp(1), 10, claim(1));
      await s.finishJob(
        testId(1, "c"),
        claim(1).token,
        { status: "done", attempts: 1, nextAttemptAt: stamp(5), firstAttemptAt: stamp(5), lastError: null, lastStatus: 200 },
        { records: [{ kind: "update", record: tagged, expectedVersion: 1, changed: ["tags"] }] },
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
      expect(await s.claimDueJobs(stamp(100), 10, claim(2))).toEqual([]);
    });

    h.it("finishJob with conflicting changes rolls back the job update too", async () => {
      const s = h.storage();
      await seedFlocks(s);
      const event = rec(1, { name: "contact_created", tags: [] }, { type: "data_event" });
      await s.apply({ records: [{ kind: "insert", record: event }], outbox: [job(1, 0)] });
      const stale = { ...event, data: { ...event.data, tags: ["send-json-webhook"] }, version: 3 };
      await s.claimDueJobs(stamp(1), 10, claim(1, 50));
      await expect(
        s.finishJob(
          testId(1, "c"),
          claim(1).token,
          { status: "done", attempts: 1, nextAttemptAt: stamp(5), firstAttemptAt: stamp(5), lastError: null },
          { records: [{ kind: "update", record: stale, expectedVersion: 2, changed: ["tags"] }] },
        ),
      ).rejects.toMatchObject({ code: "conflict" });
      // Still held by the claim (a failed write ends nothing), then claimed again after it.
      expect(await s.claimDueJobs(stamp(49), 10, claim(2))).toEqual([]);
      expect(await s.claimDueJobs(stamp(50), 10, claim(2))).toEqual([claimed(1, 0)]);
      expect((await s.getRecord(F1, "data_event", event.id))?.data.tags).toEqual([]);
    });

    h.it("finishJob schedules a retry; an unknown job is not_found", async () => {
      const s = h.storage();
      await seedFlocks(s);
      await s.apply({ outbox: [job(1, 0)] });
      const retry = { status: "pending" as const, attempts: 1, nextAttemptAt: stamp(60), firstAttemptAt: stamp(1), lastError: "HTTP 503", lastStatus: 503 };
      await s.claimDueJobs(stamp(1), 10, claim(1));
      expect(await s.finishJob(testId(1, "c"), claim(1).token, retry)).toBe(true);
      expect(await s.claimDueJobs(stamp(59), 10, claim(2))).toEqual([]);
      expect(await s.claimDueJobs(stamp(60), 10, claim(2))).toEqual([{ ...job(1, 0), ...retry, claimedUntil: stamp(10_000) }]);
      await s.finishJob(testId(1, "c"), claim(2).token, { ...retry, body: '{"a":1}', keepClaim: true });
      expect((await s.listJobs({}))[0]?.body).toBe('{"a":1}');
      await s.finishJob(testId(1, "c"), claim(2).token, { ...retry, status: "dead", lastStatus: undefined });
      const [dead] = await s.listJobs({});
      expect(dead?.lastStatus).toBeNull();
      expect(dead?.body).toBe('{"a":1}');
      expect(await s.claimDueJobs(stamp(100), 10, claim(3))).toEqual([]);
      await expect(s.finishJob(testId(9, "c"), claim(3).token, retry)).rejects.toMatchObject({ code: "not_found" });
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

  h.shared("claims across two Storages on one database", (open) => {
    h.it("claims racing from both never hand out a job twice; the other's token finishes nothing", async () => {
      const [a, b] = await open();
      await seedFlocks(a);
      await a.apply({ outbox: Array.from({ length: 40 }, (_, i) => job(i + 1, i % 5)) });
      const rounds = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).claimDueJobs(stamp(10), 7, claim(i + 1))),
      );
      const ids = rounds.flat().map((j) => j.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(40);
      const first = rounds[0]![0]!;
      const update = { status: "done" as const, attempts: 1, nextAttemptAt: first.nextAttemptAt, firstAttemptAt: stamp(10), lastError: null, lastStatus: 200 };
      expect(await b.finishJob(first.id, claim(2).token, update)).toBe(false);
      expect(await b.finishJob(first.id, claim(1).token, update)).toBe(true);
      expect((await a.listJobs({ status: "done" })).map((j) => j.id)).toEqual([first.id]);
      // Lapsed claims are taken over by the other Storage.
      expect(await b.claimDueJobs(stamp(9_999), 100, claim(20))).toEqual([]);
      expect(await b.claimDueJobs(stamp(10_000), 100, claim(20))).toHaveLength(39);
    });
  });
}
