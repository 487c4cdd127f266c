import { describe, expect, it } from "vitest";
import { createLimitPurgeClock, limitListSize, limitUpdate, LIMIT_LIST_DEFAULT, LIMIT_PURGE_BATCH, LIMIT_PURGE_EVERY_MS } from "./limit-rows.js";

describe("limit rows", () => {
  it("purge: due at first, a minute later, at once after a full batch, and when the clock moved back", () => {
    const clock = createLimitPurgeClock();
    expect(clock.due(1_000)).toBe(true);
    clock.done(1_000, 3);
    expect(clock.due(1_000 + LIMIT_PURGE_EVERY_MS - 1)).toBe(false);
    expect(clock.due(1_000 + LIMIT_PURGE_EVERY_MS)).toBe(true);
    expect(clock.due(999)).toBe(true);
    clock.done(2_000, LIMIT_PURGE_BATCH);
    expect(clock.due(2_001)).toBe(true);
  });

  it("update: a deletion answers nothing, a kept row its value, a new row its value until it expires", () => {
    expect(limitUpdate("1", null, 10)).toEqual({ write: { kind: "delete" }, result: undefined });
    expect(limitUpdate("1", undefined, 10)).toEqual({ write: { kind: "keep" }, result: "1" });
    expect(limitUpdate(undefined, undefined, 10)).toEqual({ write: { kind: "keep" }, result: undefined });
    expect(limitUpdate("1", { value: "2", expiresAt: 11 }, 10)).toEqual({ write: { kind: "set", value: "2", expiresAt: 11 }, result: "2" });
    expect(limitUpdate("1", { value: "2", expiresAt: 10 }, 10).result).toBeUndefined();
  });

  it("list size: whole, not negative, the default when not given", () => {
    expect([limitListSize(), limitListSize(2.7), limitListSize(-3)]).toEqual([LIMIT_LIST_DEFAULT, 2, 0]);
  });
});
