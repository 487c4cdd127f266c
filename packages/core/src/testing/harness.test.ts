import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "../memory/memory.js";
import { declareSuite, unmatchedSkips } from "./harness.js";
import { runRoleTests } from "./storage-suite.js";

// A Storage that cannot rename flocks: the one case it fails is skipped, with its reason,
// and the suite's check that every skipped name exists runs with it.
runRoleTests("FlockStore", {
  name: "memory that renames nothing",
  create: () => ({ ...createMemoryStorage(), renameFlock: async () => false }),
  skip: [{ reason: "shows a declared skip: this wrapper renames nothing", tests: ["renameFlock changes the name only"] }],
});

describe("skips", () => {
  it("a skipped name that matches no test or group is reported", () => {
    const declared = new Set(["flocks", "listFlocks is ordered by identifier", "flocks > listFlocks is ordered by identifier"]);
    expect(unmatchedSkips(new Set(["flocks", "flocks > listFlocks is ordered by identifier"]), declared)).toEqual([]);
    expect(unmatchedSkips(new Set(["flocks", "listFlock is ordered"]), declared)).toEqual(["listFlock is ordered"]);
  });

  it("a skip without a reason is refused", () => {
    const opts = { name: "x", create: createMemoryStorage, skip: [{ reason: " ", tests: ["flocks"] }] };
    expect(() => declareSuite("x", opts, () => {})).toThrow(/gives no reason/);
  });
});
