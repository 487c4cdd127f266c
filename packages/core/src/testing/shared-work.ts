/**
 * @module storage/conformance-claims
 * Conformance tests of the work several processes share on one database: leases
 * (`withLease` over `updateLimit`, listed by `listLimits`), the one data event per dedupe
 * key and flock, and, with two Storages on one database, outbox claims and leases that
 * exclude each other across "processes".
 */
import { describe, expect, it } from "vitest";
import { createFakeClock } from "../time.js";
import { claim, job } from "./job-queue.js";
import { F1, F2, rec, seedFlocks, stamp, testId, type Harness } from "./fixtures.js";
import { sharedOpener, type OpenShared } from "./shared-state.js";
import { listLeases, withLease } from "../storage/lease.js";
import type { Storage } from "../storage/storage.js";

/** Declares the lease and dedupe-key groups (one Storage). */
export function describeSharedWork(h: Harness): void {
  h.group("leases", () => {
    h.it("one owner at a time; released when its work ends; listed while held", async () => {
      const s = h.storage();
      const clock = createFakeClock("2026-03-01T00:00:00Z");
      const t0 = clock.now().getTime();
      const inner = await withLease(s, "scheduler", { ttlMs: 60_000, clock, owner: "p1" }, async () => {
        expect(await listLeases(s, t0)).toEqual([{ name: "scheduler", owner: "p1", expiresAt: t0 + 60_000 }]);
        const other = await withLease(s, "scheduler", { ttlMs: 60_000, clock, owner: "p2" }, async () => "ran");
        expect(other).toEqual({ acquired: false });
        // Another name is another lease.
        expect(await withLease(s, "task:f1:x", { ttlMs: 60_000, clock, owner: "p2" }, async () => 7)).toEqual({ acquired: true, value: 7 });
        return "inner";
      });
      expect(inner).toEqual({ acquired: true, value: "inner" });
      expect(await listLeases(s, t0)).toEqual([]);
      expect(await withLease(s, "scheduler", { ttlMs: 60_000, clock, owner: "p2" }, async () => "second")).toEqual({ acquired: true, value: "second" });
    });

    h.it("a lease whose holder stopped renewing lapses after its ttl, and the holder learns it lost it", async () => {
      const s = h.storage();
      const clock = createFakeClock("2026-03-01T00:00:00Z");
      // A holder that died: the lease row stays until its expiry.
      const t0 = clock.now().getTime();
      await s.updateLimit("lease:tasks", t0, () => ({ value: "dead-process", expiresAt: t0 + 1000 }));
      expect(await withLease(s, "tasks", { ttlMs: 1000, clock, owner: "p2" }, async () => 1)).toEqual({ acquired: false });
      clock.advance(999);
      expect(await withLease(s, "tasks", { ttlMs: 1000, clock, owner: "p2" }, async () => 1)).toEqual({ acquired: false });
      clock.advance(1);
      // p2 takes it; while p2 works, p3 takes over a lapsed lease, and p2's next renewal sees it.
      const r = await withLease(s, "tasks", { ttlMs: 30, clock, owner: "p2" }, async (lost) => {
        clock.advance(31);
        expect(await withLease(s, "tasks", { ttlMs: 60_000, clock, owner: "p3" }, async () => "p3 ran")).toEqual({ acquired: true, value: "p3 ran" });
        await s.updateLimit("lease:tasks", clock.now().getTime(), () => ({ value: "p3", expiresAt: clock.now().getTime() + 60_000 }));
        // The renewal may have run already (its timer is real, and a loaded database is slow):
        // an abort that fired before we listen would never be heard again.
        if (!lost.aborted) await new Promise<void>((resolve) => lost.addEventListener("abort", () => resolve(), { once: true }));
        return lost.aborted;
      });
      expect(r).toEqual({ acquired: true, value: true });
      // p2's release left p3's lease alone.
      expect(await s.updateLimit("lease:tasks", clock.now().getTime(), () => undefined)).toBe("p3");
    });

    h.it("listLimits returns live rows of the prefix only, by key", async () => {
      const s = h.storage();
      const T = 1_800_000_000_000;
      await s.updateLimit("lease:b", T, () => ({ value: "2", expiresAt: T + 10 }));
      await s.updateLimit("lease:a", T, () => ({ value: "1", expiresAt: T + 10 }));
      await s.updateLimit("lease:old", T, () => ({ value: "0", expiresAt: T + 1 }));
      await s.updateLimit("login:x", T, () => ({ value: "9", expiresAt: T + 10 }));
      await s.updateLimit("lease_", T, () => ({ value: "9", expiresAt: T + 10 }));
      expect(await s.listLimits("lease:", T + 1)).toEqual([
        { key: "lease:a", value: "1", expiresAt: T + 10 },
        { key: "lease:b", value: "2", expiresAt: T + 10 },
      ]);
      expect(await s.listLimits("lease:", T + 1, 1)).toHaveLength(1);
      expect(await s.listLimits("%", T)).toEqual([]);
    });
  });

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
}

/** Declares the tests of two Storages on one database: claims and leases across processes. */
export function describeSharedClaims(name: string, openShared: OpenShared): void {
  describe(`Storage conformance: ${name}: claims and leases across two Storages on one database`, () => {
    const open = sharedOpener(openShared);

    it("claims racing from both never hand out a job twice; the other's token finishes nothing", async () => {
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

    it("a lease held through one Storage keeps the other out until it is released", async () => {
      const [a, b] = await open();
      const clock = createFakeClock("2026-03-01T00:00:00Z");
      let inside = 0;
      let most = 0;
      const work = (s: Storage, owner: string) =>
        withLease(s, "scheduler", { ttlMs: 60_000, clock, owner }, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside -= 1;
          return owner;
        });
      const results = await Promise.all([work(a, "a1"), work(b, "b1"), work(a, "a2"), work(b, "b2")]);
      expect(most).toBe(1);
      expect(results.filter((r) => r.acquired).length).toBeGreaterThanOrEqual(1);
      expect(await listLeases(b, clock.now().getTime())).toEqual([]);
    });

    it("two Storages emitting the same dedupe key at once store it once", async () => {
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
