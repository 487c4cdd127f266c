/**
 * @module testing/connection
 * Conformance of `Connection`: the change generation follows this Storage's own writes (or
 * is undefined throughout) and, after `syncChanges`, another Storage's commits (account
 * lookups included, whatever was written between); pool
 * figures are consistent; closing twice does no harm.
 */
import { expect } from "vitest";
import { F1, rec, seedFlocks, stamp } from "./fixtures.js";
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

    h.it("after syncChanges, key, user and flock lookups see another Storage's account writes, whatever was written between", async () => {
      const [a, b] = await open();
      await seedFlocks(a);
      const user = { username: "ada", passwordHash: "scrypt$old", flocks: [F1], role: "core" as const, created: stamp(0) };
      const key = { tokenHash: "k1", username: "ada", created: stamp(0), expires: null };
      await a.putUser(user);
      await a.putApiKey(key);
      await b.syncChanges();
      // Read (and cached, where the adapter caches) before the other Storage's writes.
      expect(await b.getApiKey("k1")).toEqual(key);
      expect((await b.getUser("ada"))?.passwordHash).toBe("scrypt$old");
      expect((await b.getFlock(F1))?.name).toBe("F1");
      // Record writes on both sides between the account write and the sync change nothing of it.
      await a.apply({ records: [{ kind: "insert", record: rec(1, {}) }] });
      expect(await a.replacePasswordHash("ada", "scrypt$old", "scrypt$new")).toBe(true);
      expect(await a.renameFlock(F1, "Renamed")).toBe(true);
      expect(await a.deleteApiKey("k1")).toBe(true);
      await b.apply({ records: [{ kind: "insert", record: rec(2, {}) }] });
      await b.syncChanges();
      expect(await b.getApiKey("k1")).toBeUndefined();
      expect((await b.getUser("ada"))?.passwordHash).toBe("scrypt$new");
      expect((await b.getFlock(F1))?.name).toBe("Renamed");
      // And back: a key made on the other side after b's miss is found after the next sync.
      await a.putApiKey(key);
      await b.syncChanges();
      expect(await b.getApiKey("k1")).toEqual(key);
    });
  });
}
