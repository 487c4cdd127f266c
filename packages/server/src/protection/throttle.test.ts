import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFakeClock, createMemoryStorage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { describe, expect, it } from "vitest";
import { createThrottle, rateLimitHeaders, throttledDetail, type ThrottleResult } from "./throttle.js";

/** One request: wait `after` ms, then check `key`; expect the listed fields. */
interface Step {
  after?: number;
  key?: string;
  expected: Partial<ThrottleResult>;
}

async function run(perMinute: number, steps: Step[]): Promise<ThrottleResult[]> {
  const clock = createFakeClock();
  const throttle = createThrottle({ perMinute, clock, storage: createMemoryStorage() });
  const out: ThrottleResult[] = [];
  for (const s of steps) {
    clock.advance(s.after ?? 0);
    out.push(await throttle.check(s.key ?? "k1"));
  }
  return out;
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
  ])("$name", async ({ perMinute, steps }) => {
    const results = await run(perMinute, steps);
    steps.forEach((s, i) => expect(results[i], `step ${i + 1}`).toMatchObject(s.expected));
  });

  it("holds the limit exactly at a larger rate", async () => {
    const throttle = createThrottle({ perMinute: 60, clock: createFakeClock(), storage: createMemoryStorage() });
    const results = await Promise.all(Array.from({ length: 100 }, () => throttle.check("key")));
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
  });

  it("honours a custom window", async () => {
    const clock = createFakeClock();
    const throttle = createThrottle({ perMinute: 1, clock, windowMs: 10_000, storage: createMemoryStorage() });
    expect(await throttle.check("k")).toMatchObject({ allowed: true, resetSeconds: 10 });
    clock.advance(9_000);
    expect((await throttle.check("k")).allowed).toBe(false);
    clock.advance(1_000);
    expect((await throttle.check("k")).allowed).toBe(true);
  });

  it("holds for the service as a whole: three processes on one SQLite file share each window", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-throttle-"));
    const path = join(dir, "records.db");
    const storages = [0, 1, 2].map(() => createSqliteStorage({ path }));
    try {
      const clock = createFakeClock();
      const throttles = storages.map((storage) => createThrottle({ perMinute: 10, clock, storage }));
      const results: ThrottleResult[] = [];
      for (let i = 0; i < 30; i++) results.push(await throttles[i % 3]!.check("key"));
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      expect(results.slice(0, 10).map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      // Another key, in any process, has its own window.
      expect((await throttles[2]!.check("other")).allowed).toBe(true);
      clock.advance(60_000);
      expect((await throttles[1]!.check("key")).remaining).toBe(9);
    } finally {
      for (const s of storages) await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    { name: "zero per minute", options: { perMinute: 0 } },
    { name: "a fractional rate", options: { perMinute: 1.5 } },
    { name: "a negative window", options: { perMinute: 1, windowMs: -1 } },
  ])("refuses $name", ({ options }) => {
    expect(() => createThrottle({ clock: createFakeClock(), storage: createMemoryStorage(), ...options })).toThrow(RangeError);
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
