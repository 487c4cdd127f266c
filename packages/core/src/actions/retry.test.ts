import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFakeClock } from "../time.js";
import {
  DEFAULT_RETRY_POLICY,
  isDeliverySuccess,
  nextAttemptAt,
  parseRetryAfter,
  type RetryPolicy,
  retryDeadline,
  retryDelayMs,
} from "./retry.js";

const MIN = 60_000;
const HOUR = 3_600_000;
const FIRST = new Date("2026-03-01T00:00:00Z");
const half = () => 0.5;

/** Every attempt time until the schedule gives up, each failure observed right at its attempt time. */
function schedule(random: () => number, policy: Partial<RetryPolicy> = {}): Date[] {
  const clock = createFakeClock(FIRST);
  const times = [clock.now()];
  for (let attempt = 1; attempt < 10_000; attempt++) {
    const next = nextAttemptAt(FIRST, attempt, clock.now(), random, null, policy);
    if (!next) return times;
    clock.set(next);
    times.push(next);
  }
  throw new Error("the schedule never gave up");
}

describe("retryDelayMs: doubling from firstRetryDelayMs, capped", () => {
  it.each([
    [1, MIN],
    [2, 2 * MIN],
    [3, 4 * MIN],
    [10, 512 * MIN],
    [11, 12 * HOUR], // 1024 min is over the 12 h cap
    [60, 12 * HOUR],
    [5000, 12 * HOUR],
  ])("after attempt %i: %i ms", (attempt, ms) => {
    expect(retryDelayMs(attempt)).toBe(ms);
  });

  it("follows the configured first delay and cap", () => {
    expect(retryDelayMs(3, { firstRetryDelayMs: 10, maxDelayMs: 25 })).toBe(25);
    expect(retryDelayMs(2, { firstRetryDelayMs: 10 })).toBe(20);
  });
});

describe("nextAttemptAt", () => {
  it.each([
    // jitter, random, attempt, expected delay from now
    ["equal", 0, 1, 30_000],
    ["equal", 0.5, 1, 45_000],
    ["equal", 0.999999, 1, 60_000],
    ["equal", 0.5, 3, 180_000],
    ["full", 0, 1, 1], // never at `now` itself
    ["full", 0.5, 2, 60_000],
    ["none", 0.123, 2, 120_000],
  ] as const)("%s jitter, random %f, after attempt %i: +%i ms", (jitter, r, attempt, delay) => {
    const now = new Date(FIRST.getTime() + HOUR);
    const next = nextAttemptAt(FIRST, attempt, now, () => r, null, { jitter });
    expect(next!.getTime() - now.getTime()).toBe(Math.round(delay));
  });

  it("keeps jitter within [delay/2, delay] (equal) and (0, delay] (full) for any random value", () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 2, noNaN: true }), fc.integer({ min: 1, max: 40 }), (r, attempt) => {
        const now = new Date(FIRST.getTime() + MIN);
        const base = retryDelayMs(attempt);
        const equal = nextAttemptAt(FIRST, attempt, now, () => r)!.getTime() - now.getTime();
        expect(equal).toBeGreaterThanOrEqual(Math.floor(base / 2));
        expect(equal).toBeLessThanOrEqual(base);
        const full = nextAttemptAt(FIRST, attempt, now, () => r, null, { jitter: "full" })!.getTime() - now.getTime();
        expect(full).toBeGreaterThanOrEqual(1);
        expect(full).toBeLessThanOrEqual(base);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it.each([
    ["fixed 0.5", half],
    ["always 0", () => 0],
    ["always 0.99", () => 0.99],
    ["a seeded sequence", seeded(11)],
  ])("the schedule (%s) moves forward, stays in the window, ends at it, and gives up", (_, random) => {
    const times = schedule(random);
    const deadline = retryDeadline(FIRST).getTime();
    for (let i = 1; i < times.length; i++) expect(times[i]!.getTime()).toBeGreaterThan(times[i - 1]!.getTime());
    expect(times.at(-1)!.getTime()).toBe(deadline); // one last attempt at the end of the window
    expect(nextAttemptAt(FIRST, times.length, times.at(-1)!, random)).toBeNull();
    // about 7 days: 10 doublings, then at most every 12 hours
    expect(times.length).toBeGreaterThan(20);
    expect(times.length).toBeLessThan(40);
  });

  it("gives up once the window has passed", () => {
    const deadline = retryDeadline(FIRST);
    expect(deadline.toISOString()).toBe("2026-03-08T00:00:00.000Z");
    expect(nextAttemptAt(FIRST, 25, deadline, half)).toBeNull();
    expect(nextAttemptAt(FIRST, 25, new Date(deadline.getTime() + 1), half)).toBeNull();
    expect(nextAttemptAt(FIRST, 25, new Date(deadline.getTime() - 1), half)!.getTime()).toBe(deadline.getTime());
  });

  it("follows retryWindowHours", () => {
    const times = schedule(half, { retryWindowHours: 1 });
    expect(times.at(-1)!.toISOString()).toBe("2026-03-01T01:00:00.000Z");
  });

  it.each([
    { name: "seconds, longer than the backoff", retryAfter: "600", expected: "2026-03-01T01:10:00.000Z" },
    { name: "seconds as a number", retryAfter: 600, expected: "2026-03-01T01:10:00.000Z" },
    { name: "an HTTP date, longer", retryAfter: "Sun, 01 Mar 2026 03:00:00 GMT", expected: "2026-03-01T03:00:00.000Z" },
    { name: "seconds, shorter than the backoff: ignored", retryAfter: "5", expected: "2026-03-01T01:00:45.000Z" },
    { name: "an HTTP date in the past: ignored", retryAfter: "Sun, 01 Mar 2026 00:00:00 GMT", expected: "2026-03-01T01:00:45.000Z" },
    { name: "junk: ignored", retryAfter: "soon", expected: "2026-03-01T01:00:45.000Z" },
    { name: "a negative number: ignored", retryAfter: -100, expected: "2026-03-01T01:00:45.000Z" },
    { name: "past the window: give up", retryAfter: String(8 * 24 * 3600), expected: null },
  ])("Retry-After $name", ({ retryAfter, expected }) => {
    const now = new Date("2026-03-01T01:00:00Z");
    expect(nextAttemptAt(FIRST, 1, now, half, retryAfter)?.toISOString() ?? null).toBe(expected);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses attempt %d", (attempt) => {
    expect(() => nextAttemptAt(FIRST, attempt, FIRST, half)).toThrow(RangeError);
  });

  it("defaults to the contract's config", () => {
    expect(DEFAULT_RETRY_POLICY).toMatchObject({ firstRetryDelayMs: 60_000, retryWindowHours: 168 });
  });
});

describe("parseRetryAfter", () => {
  const now = new Date("2026-03-01T00:00:00Z");
  it.each([
    ["120", "2026-03-01T00:02:00.000Z"],
    [" 0 ", "2026-03-01T00:00:00.000Z"],
    ["Wed, 04 Mar 2026 10:00:00 GMT", "2026-03-04T10:00:00.000Z"],
    ["1.5", null],
    ["-3", null],
    ["2026", "2026-03-01T00:33:46.000Z"], // delay-seconds, however large
    ["2026-03-04", null],
    ["", null],
    ["tomorrow-ish", null],
  ])("%j → %s", (value, expected) => {
    expect(parseRetryAfter(value, now)?.toISOString() ?? null).toBe(expected);
  });
});

describe("isDeliverySuccess", () => {
  it.each([
    [200, true],
    [201, true],
    [202, false],
    [204, false],
    [301, false],
    [400, false],
    [410, false],
    [429, false],
    [500, false],
    [503, false],
  ])("%i → %s", (status, ok) => {
    expect(isDeliverySuccess(status)).toBe(ok);
  });
});

/** A small deterministic generator in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}
