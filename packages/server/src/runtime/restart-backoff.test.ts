import { describe, expect, it } from "vitest";
import { createRestartBackoff } from "./restart-backoff.js";

describe("createRestartBackoff", () => {
  it("replaces a process that had run a while at once", () => {
    const b = createRestartBackoff();
    expect(b.next(0, 10_000)).toBe(0);
    expect(b.next(0, 3_600_000)).toBe(0);
  });

  it("doubles the wait while replacements keep dying early, up to the cap", () => {
    const b = createRestartBackoff();
    const waits = Array.from({ length: 10 }, () => b.next(0, 100));
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("starts over once a replacement has run steadily, and keeps slots apart", () => {
    const b = createRestartBackoff({ steadyMs: 1000, firstMs: 10, maxMs: 100 });
    expect([b.next(0, 5), b.next(0, 5), b.next(1, 5)]).toEqual([10, 20, 10]);
    expect(b.next(0, 1000)).toBe(0);
    expect(b.next(0, 5)).toBe(10);
    expect(b.next(1, 5)).toBe(20);
  });
});
