import { createFakeClock } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createThrottle, rateLimitHeaders, throttledDetail, type ThrottleResult } from "./throttle.js";

/** One request: wait `after` ms, then check `key`; expect the listed fields. */
interface Step {
  after?: number;
  key?: string;
  expected: Partial<ThrottleResult>;
}

function run(perMinute: number, steps: Step[]): ThrottleResult[] {
  const clock = createFakeClock();
  const throttle = createThrottle({ perMinute, clock });
  return steps.map((s) => {
    clock.advance(s.after ?? 0);
    return throttle.check(s.key ?? "k1");
  });
}

describe("createThrottle", () => {
  it.each<{ name: string; perMinute: number; steps: Step[] }>([
    {
      name: "allows the limit, then refuses",
      perMinute: 3,
      steps: [
        { expected: { allowed: true, limit: 3, remaining: 2, resetSeconds: 60 } },
        { after: 1000, expected: { allowed: true, remaining: 1, resetSeconds: 59 } },
        { after: 1000, expected: { allowed: true, remaining: 0, resetSeconds: 58 } },
        { after: 1000, expected: { allowed: false, remaining: 0, resetSeconds: 57, retryAfterSeconds: 57 } },
        { after: 56_500, expected: { allowed: false, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 } },
      ],
    },
    {
      name: "resets a minute after the window's first request",
      perMinute: 2,
      steps: [
        { expected: { allowed: true, remaining: 1 } },
        { expected: { allowed: true, remaining: 0 } },
        { after: 59_999, expected: { allowed: false, resetSeconds: 1 } },
        { after: 1, expected: { allowed: true, remaining: 1, resetSeconds: 60 } },
        { expected: { allowed: true, remaining: 0 } },
        { expected: { allowed: false } },
      ],
    },
    {
      name: "a window opens at the first request after a quiet spell, not on the clock minute",
      perMinute: 1,
      steps: [
        { after: 30_000, expected: { allowed: true, resetSeconds: 60 } },
        { after: 45_000, expected: { allowed: false, resetSeconds: 15 } },
        { after: 15_000, expected: { allowed: true, resetSeconds: 60 } },
      ],
    },
    {
      name: "keeps keys independent",
      perMinute: 1,
      steps: [
        { key: "a", expected: { allowed: true } },
        { key: "a", expected: { allowed: false } },
        { key: "b", expected: { allowed: true, remaining: 0 } },
        { key: "b", expected: { allowed: false } },
        { key: "a", after: 60_000, expected: { allowed: true } },
        { key: "b", expected: { allowed: true } },
      ],
    },
    {
      name: "refused requests do not extend the window",
      perMinute: 1,
      steps: [
        { expected: { allowed: true } },
        ...Array.from({ length: 5 }, () => ({ after: 10_000, expected: { allowed: false } })),
        { after: 10_000, expected: { allowed: true } },
      ],
    },
  ])("$name", ({ perMinute, steps }) => {
    const results = run(perMinute, steps);
    steps.forEach((s, i) => expect(results[i], `step ${i + 1}`).toMatchObject(s.expected));
  });

  it("holds the limit exactly at a larger rate", () => {
    const throttle = createThrottle({ perMinute: 60, clock: createFakeClock() });
    const allowed = Array.from({ length: 100 }, () => throttle.check("key").allowed).filter(Boolean);
    expect(allowed).toHaveLength(60);
  });

  it("honours a custom window", () => {
    const clock = createFakeClock();
    const throttle = createThrottle({ perMinute: 1, clock, windowMs: 10_000 });
    expect(throttle.check("k")).toMatchObject({ allowed: true, resetSeconds: 10 });
    clock.advance(9_000);
    expect(throttle.check("k").allowed).toBe(false);
    clock.advance(1_000);
    expect(throttle.check("k").allowed).toBe(true);
  });

  it("forgets expired windows", () => {
    const clock = createFakeClock();
    const throttle = createThrottle({ perMinute: 5, clock });
    for (let i = 0; i < 1000; i++) throttle.check(`key-${i}`);
    expect(throttle.size()).toBe(1000);
    clock.advance(60_000);
    throttle.check("fresh");
    expect(throttle.size()).toBe(1);
  });

  it("keeps only the newest windows beyond maxKeys", () => {
    const clock = createFakeClock();
    const throttle = createThrottle({ perMinute: 1, clock, maxKeys: 3 });
    for (const key of ["a", "b", "c", "d"]) {
      throttle.check(key);
      clock.advance(1);
    }
    expect(throttle.size()).toBe(3);
    expect(throttle.check("d").allowed).toBe(false); // still tracked
    expect(throttle.check("a").allowed).toBe(true); // forgotten, so a fresh window
  });

  it.each([
    { name: "zero per minute", options: { perMinute: 0 } },
    { name: "a fractional rate", options: { perMinute: 1.5 } },
    { name: "a negative window", options: { perMinute: 1, windowMs: -1 } },
    { name: "no room for keys", options: { perMinute: 1, maxKeys: 0 } },
  ])("refuses $name", ({ options }) => {
    expect(() => createThrottle({ clock: createFakeClock(), ...options })).toThrow(RangeError);
  });
});

describe("rateLimitHeaders", () => {
  it.each([
    {
      name: "allowed",
      result: { allowed: true, limit: 60, remaining: 12, resetSeconds: 30 },
      expected: { "x-rate-limit-limit": "60", "x-rate-limit-remaining": "12", "x-rate-limit-reset": "30" },
    },
    {
      name: "refused",
      result: { allowed: false, limit: 60, remaining: 0, resetSeconds: 7, retryAfterSeconds: 7 },
      expected: { "x-rate-limit-limit": "60", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "7", "Retry-After": "7" },
    },
  ])("$name", ({ result, expected }) => {
    expect(rateLimitHeaders(result)).toEqual(expected);
  });
});

describe("throttledDetail", () => {
  it.each([
    { wait: 1, says: "retry in 1 second," },
    { wait: 42, says: "retry in 42 seconds," },
  ])("says to wait $wait s and how to avoid the limit", ({ wait, says }) => {
    const detail = throttledDetail({ allowed: false, limit: 60, remaining: 0, resetSeconds: wait, retryAfterSeconds: wait });
    expect(detail).toContain("more than 60 requests per minute");
    expect(detail).toContain(says);
    expect(detail).toContain("APPLICATION: <Organisation>/<Application>/<Version>");
  });
});
