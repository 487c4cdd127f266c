/**
 * @module testing/flock-store
 * Conformance of `FlockStore`: created once, read back, listed by identifier, renamed.
 */
import { expect } from "vitest";
import { stamp } from "./fixtures.js";
import type { Harness } from "./harness.js";

/** Declares the `FlockStore` tests. */
export function describeFlockStore(h: Harness): void {
  h.group("flocks", () => {
    h.it("createFlock creates once; the second call returns false and changes nothing", async () => {
      const s = h.storage();
      const row = { identifier: "demo", name: "Demo", created: stamp(1) };
      expect(await s.createFlock(row)).toBe(true);
      expect(await s.createFlock({ ...row, name: "Other", created: stamp(2) })).toBe(false);
      expect(await s.getFlock("demo")).toEqual(row);
    });

    h.it("getFlock of an unknown identifier is undefined", async () => {
      expect(await h.storage().getFlock("nope")).toBeUndefined();
    });

    h.it("listFlocks is ordered by identifier", async () => {
      const s = h.storage();
      expect(await s.listFlocks()).toEqual([]);
      for (const id of ["b", "c", "a"]) await s.createFlock({ identifier: id, name: id.toUpperCase(), created: stamp(1) });
      expect((await s.listFlocks()).map((f) => f.identifier)).toEqual(["a", "b", "c"]);
      expect((await s.listFlocks())[0]).toEqual({ identifier: "a", name: "A", created: stamp(1) });
    });

    h.it("renameFlock changes the name only", async () => {
      const s = h.storage();
      await s.createFlock({ identifier: "demo", name: "Demo", created: stamp(1) });
      expect(await s.renameFlock("demo", "Demo Society")).toBe(true);
      expect(await s.getFlock("demo")).toEqual({ identifier: "demo", name: "Demo Society", created: stamp(1) });
      expect(await s.renameFlock("nope", "x")).toBe(false);
      expect(await s.getFlock("nope")).toBeUndefined();
    });
  });
}
