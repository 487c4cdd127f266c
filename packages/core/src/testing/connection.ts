/**
 * @module testing/connection
 * Conformance of `Connection`: the change generation follows this Storage's own writes (or
 * is undefined throughout) and, after `syncChanges`, another Storage's commits; pool
 * figures are consistent; closing twice does no harm.
 */
import { expect } from "vitest";
import { rec, seedFlocks } from "./fixtures.js";
import type { Harness } from "./harness.js";

/** Declares the `Connection` tests. */
export function describeConnection(h: Harness): void {
  h.group("connection", () => {
    h.it("changeGeneration moves with each of this Storage's writes, or is undefined throughout", async () => {
      const s = h.storage();
      const seen = [s.changeGeneration()];
      await s.putSetting("a", "1");
      seen.push(s.changeGeneration());
      await seedFlocks(s);
      await s.apply({ records: [{ kind: "insert", record: rec(1, {}) }] });
      seen.push(s.changeGeneration());
      if (seen[0] === undefined) expect(seen).toEqual([undefined, undefined, undefined]);
      else expect(new Set(seen).size).toBe(3);
    });

    h.it("poolStats is undefined (no pool) or counts idle and busy connections consistently", async () => {
      const s = h.storage();
      await s.listFlocks();
      const p = s.poolStats();
      if (p === undefined) return;
      expect(p.total).toBeGreaterThanOrEqual(1);
      expect(p.idle).toBeGreaterThanOrEqual(0);
      expect(p.idle).toBeLessThanOrEqual(p.total);
      expect(p.waiting).toBe(0);
    });

    h.it("close resolves, and a second close does no harm", async () => {
      const s = h.storage();
      await s.close();
      await s.close();
    });
  });

  h.shared("connection across two Storages on one database", (open) => {
    h.it("after syncChanges the generation has moved past another Storage's acknowledged write", async () => {
      const [a, b] = await open();
      await b.syncChanges();
      const g = b.changeGeneration();
      await a.putSetting("a", "1");
      await b.syncChanges();
      if (g === undefined) expect(b.changeGeneration()).toBeUndefined();
      else expect(b.changeGeneration()).not.toBe(g);
    });
  });
}
