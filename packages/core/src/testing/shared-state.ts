/**
 * @module testing/shared-state
 * Conformance of `SharedState`: settings (first writer wins, replaced by `putSetting`),
 * the keyed limit rows (`updateLimit`, `listLimits`) and the leases built on them, and,
 * with two Storages on one database, limit rows and leases that both see.
 */
import { expect } from "vitest";
import { createFakeClock } from "../time.js";
import { stamp } from "./fixtures.js";
import type { Harness } from "./harness.js";
import { listLeases, withLease } from "../storage/lease.js";
import type { Storage } from "../storage/storage.js";

/** Declares the `SharedState` tests. */
export function describeSharedState(h: Harness): void {
  h.group("settings", () => {
    h.it("initSetting: the first writer wins", async () => {
      const s = h.storage();
      expect(await s.getSetting("secret")).toBeUndefined();
      expect(await s.initSetting("secret", "one")).toBe("one");
      expect(await s.initSetting("secret", "two")).toBe("one");
      expect(await s.getSetting("secret")).toBe("one");
      expect(await s.initSetting("other", "")).toBe("");
      expect(await s.getSetting("other")).toBe("");
    });
  });

  h.group("putSetting", () => {
    h.it("putSetting replaces a value; initSetting then keeps it", async () => {
      const s = h.storage();
      await s.putSetting("scheduler.last_run.f1", "2026-01-01T00:00:00.000000");
      expect(await s.getSetting("scheduler.last_run.f1")).toBe("2026-01-01T00:00:00.000000");
      await s.putSetting("scheduler.last_run.f1", "2026-01-01T00:01:00.000000");
      expect(await s.getSetting("scheduler.last_run.f1")).toBe("2026-01-01T00:01:00.000000");
      expect(await s.initSetting("scheduler.last_run.f1", "other")).toBe("2026-01-01T00:01:00.000000");
      expect(await s.getSetting("scheduler.last_run.f2")).toBeUndefined();
    });
  });

  h.group("limits", () => {
    const T = 1_800_000_000_000;

    h.it("a missing key reads undefined; a returned row is stored and read back", async () => {
      const s = h.storage();
      const seen: (string | undefined)[] = [];
      expect(await s.updateLimit("k", T, (v) => (seen.push(v), undefined))).toBeUndefined();
      expect(await s.updateLimit("k", T, (v) => (seen.push(v), { value: "one", expiresAt: T + 1000 }))).toBe("one");
      expect(await s.updateLimit("k", T + 1, (v) => (seen.push(v), undefined))).toBe("one");
      expect(seen).toEqual([undefined, undefined, "one"]);
    });

    h.it("undefined leaves the row, null deletes it, a new row replaces it", async () => {
      const s = h.storage();
      await s.updateLimit("k", T, () => ({ value: "a", expiresAt: T + 1000 }));
      expect(await s.updateLimit("k", T, () => ({ value: "b", expiresAt: T + 2000 }))).toBe("b");
      expect(await s.updateLimit("k", T + 1500, () => undefined)).toBe("b");
      expect(await s.updateLimit("k", T, () => null)).toBeUndefined();
      expect(await s.updateLimit("k", T, (v) => (v === undefined ? undefined : { value: "x", expiresAt: T + 1 }))).toBeUndefined();
    });

    h.it("a row counts as absent from its expiry time on", async () => {
      const s = h.storage();
      await s.updateLimit("k", T, () => ({ value: "v", expiresAt: T + 10 }));
      expect(await s.updateLimit("k", T + 9, (v) => (expect(v).toBe("v"), undefined))).toBe("v");
      expect(await s.updateLimit("k", T + 10, (v) => (expect(v).toBeUndefined(), undefined))).toBeUndefined();
      // An expired row, once rewritten, is a fresh row.
      expect(await s.updateLimit("k", T + 10, (v) => ({ value: v ?? "fresh", expiresAt: T + 100 }))).toBe("fresh");
    });

    h.it("calls the function exactly once per update; keys are independent and case-sensitive", async () => {
      const s = h.storage();
      let calls = 0;
      await s.updateLimit("login:a", T, () => (calls++, { value: "a", expiresAt: T + 1000 }));
      await s.updateLimit("login:A", T, () => (calls++, { value: "A", expiresAt: T + 1000 }));
      expect(calls).toBe(2);
      expect(await s.updateLimit("login:a", T, () => undefined)).toBe("a");
      expect(await s.updateLimit("login:A", T, () => undefined)).toBe("A");
      expect(await s.updateLimit("login:b", T, () => undefined)).toBeUndefined();
    });

    h.it("a function that throws rejects the call and changes nothing", async () => {
      const s = h.storage();
      await s.updateLimit("k", T, () => ({ value: "kept", expiresAt: T + 1000 }));
      await expect(
        s.updateLimit("k", T, () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await s.updateLimit("k", T, () => undefined)).toBe("kept");
    });

    h.it("concurrent read-modify-writes of one key all count", async () => {
      const s = h.storage();
      const inc = () => s.updateLimit("n", T, (v) => ({ value: String(Number(v ?? 0) + 1), expiresAt: T + 60_000 }));
      await Promise.all(Array.from({ length: 40 }, inc));
      expect(await s.updateLimit("n", T, () => undefined)).toBe("40");
    });

    h.it("rows are purged by expiry, never by count: many new keys evict nothing", async () => {
      const s = h.storage();
      await s.updateLimit("victim", T, () => ({ value: "locked", expiresAt: T + 3_600_000 }));
      for (let i = 0; i < 3000; i++) {
        await s.updateLimit(`flood:${i}`, T + i * 1000, () => ({ value: "x", expiresAt: T + i * 1000 + 500 }));
      }
      // Purges have run (the flood spans 50 minutes); the unexpired row is still there.
      expect(await s.updateLimit("victim", T + 3_000_000, () => undefined)).toBe("locked");
      expect(await s.updateLimit("flood:2999", T + 3_000_000, () => undefined)).toBeUndefined();
    });
  });

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

  h.shared("limit rows and leases across two Storages on one database", (open) => {
    const T = 1_800_000_000_000;

    h.it("limit rows are shared: increments through both add up, and each sees the other's", async () => {
      const [a, b] = await open();
      const inc = (s: Storage) => s.updateLimit("failures", T, (v) => ({ value: String(Number(v ?? 0) + 1), expiresAt: T + 60_000 }));
      for (let i = 0; i < 5; i++) await inc(i % 2 === 0 ? a : b);
      expect(await a.updateLimit("failures", T, () => undefined)).toBe("5");
      expect(await b.updateLimit("failures", T, () => undefined)).toBe("5");
      await Promise.all([inc(a), inc(b), inc(a), inc(b)]);
      expect(await b.updateLimit("failures", T, () => undefined)).toBe("9");
      await a.updateLimit("failures", T, () => null);
      expect(await b.updateLimit("failures", T, () => undefined)).toBeUndefined();
    });

    h.it("a lease held through one Storage keeps the other out until it is released", async () => {
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
  });
}
