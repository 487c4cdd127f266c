import { describe, expect, it } from "vitest";
import { changePurgeWindowEnd } from "./purge-window.js";

describe("changePurgeWindowEnd", () => {
  it("is the purge mark plus the budget, never past the largest safe integer nor before the mark", () => {
    expect(changePurgeWindowEnd(100, 50)).toBe(150);
    expect(changePurgeWindowEnd(100, Infinity)).toBe(Number.MAX_SAFE_INTEGER);
    expect(changePurgeWindowEnd(100, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(changePurgeWindowEnd(100, 0)).toBe(100);
    expect(changePurgeWindowEnd(100, -5)).toBe(100);
  });
});
