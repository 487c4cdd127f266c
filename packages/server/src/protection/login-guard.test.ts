import { createFakeClock } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { createLoginGuard, type LoginGuardOptions } from "./login-guard.js";

const MIN = 60_000;

function setup(options: Partial<LoginGuardOptions> = {}) {
  const clock = createFakeClock();
  const guard = createLoginGuard({ clock, ...options });
  /** `n` wrong passwords in a row, one second apart; the results. */
  const failTimes = (n: number, user = "ada@example.org", address?: string) =>
    Array.from({ length: n }, () => {
      clock.advance(1000);
      return guard.fail(user, address);
    });
  return { clock, guard, failTimes };
}

describe("createLoginGuard", () => {
  it("allows four failures, locks on the fifth for one minute and reports it once", () => {
    const { guard, failTimes } = setup();
    const results = failTimes(5);
    expect(results.slice(0, 4)).toEqual(Array(4).fill({ multipleFailed: false }));
    expect(results[4]).toEqual({ multipleFailed: true, lockedForSeconds: 60 });
    expect(guard.check("ada@example.org")).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it("refuses while locked, counts down, and unlocks by itself", () => {
    const { clock, guard, failTimes } = setup();
    failTimes(5);
    clock.advance(59_000);
    expect(guard.check("ada@example.org")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1000);
    expect(guard.check("ada@example.org")).toEqual({ allowed: true });
  });

  it("does not count or report failures made while locked", () => {
    const { guard, failTimes } = setup();
    failTimes(5);
    const during = failTimes(10);
    expect(during.every((r) => !r.multipleFailed)).toBe(true);
    expect(during[9]).toEqual({ multipleFailed: false, lockedForSeconds: 50 });
    expect(guard.check("ada@example.org")).toEqual({ allowed: false, retryAfterSeconds: 50 });
  });

  it.each([
    { lockout: 1, seconds: 60 },
    { lockout: 2, seconds: 120 },
    { lockout: 3, seconds: 240 },
    { lockout: 4, seconds: 480 },
    { lockout: 5, seconds: 900 },
    { lockout: 6, seconds: 900 },
    { lockout: 9, seconds: 900 },
  ])("lockout $lockout in a row lasts $seconds s (doubling, capped at 15 min)", ({ lockout, seconds }) => {
    const { clock, failTimes } = setup();
    let last;
    for (let i = 0; i < lockout; i++) {
      last = failTimes(5)[4]!;
      expect(last.multipleFailed).toBe(true);
      clock.advance(last.lockedForSeconds! * 1000);
    }
    expect(last!.lockedForSeconds).toBe(seconds);
  });

  it("forgets failures older than the window", () => {
    const { clock, guard, failTimes } = setup();
    failTimes(4);
    clock.advance(15 * MIN);
    expect(failTimes(4).every((r) => !r.multipleFailed)).toBe(true);
    expect(guard.check("ada@example.org").allowed).toBe(true);
    expect(failTimes(1)[0]!.multipleFailed).toBe(true);
  });

  it("starts lockout growth over after a quiet window", () => {
    const { clock, failTimes } = setup();
    failTimes(5);
    clock.advance(MIN + 15 * MIN);
    expect(failTimes(5)[4]).toEqual({ multipleFailed: true, lockedForSeconds: 60 });
  });

  it("keeps growth for a lockout that follows soon after the last", () => {
    const { clock, failTimes } = setup();
    failTimes(5);
    clock.advance(MIN + 14 * MIN);
    expect(failTimes(5)[4]).toEqual({ multipleFailed: true, lockedForSeconds: 120 });
  });

  it("a success clears failures and growth", () => {
    const { clock, guard, failTimes } = setup();
    failTimes(5);
    clock.advance(MIN);
    failTimes(4);
    guard.succeed("ada@example.org");
    expect(failTimes(4).every((r) => !r.multipleFailed)).toBe(true);
    expect(failTimes(1)[0]).toEqual({ multipleFailed: true, lockedForSeconds: 60 });
  });

  it.each([
    { name: "case", other: "ADA@Example.org", sameLock: true },
    { name: "surrounding spaces", other: " ada@example.org ", sameLock: true },
    { name: "another username", other: "grace@example.org", sameLock: false },
  ])("usernames differing by $name share a lock: $sameLock", ({ other, sameLock }) => {
    const { guard, failTimes } = setup();
    failTimes(5);
    expect(guard.check(other).allowed).toBe(!sameLock);
  });

  it("an attacker at one address does not lock the user out at another", () => {
    const { guard, failTimes } = setup();
    expect(failTimes(5, "ada@example.org", "203.0.113.9")[4]!.multipleFailed).toBe(true);
    expect(guard.check("ada@example.org", "203.0.113.9").allowed).toBe(false);
    expect(guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: true });
  });

  it("many addresses together lock the username, capped like any lockout", () => {
    const { clock, guard } = setup();
    const results = Array.from({ length: 20 }, (_, i) => {
      clock.advance(1000);
      return guard.fail("ada@example.org", `203.0.113.${i}`);
    });
    expect(results.filter((r) => r.multipleFailed)).toHaveLength(1);
    expect(results[19]).toEqual({ multipleFailed: true, lockedForSeconds: 60 });
    expect(guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: false, retryAfterSeconds: 60 });
    clock.advance(MIN);
    expect(guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: true });
  });

  it("honours custom thresholds and lock lengths", () => {
    const { failTimes } = setup({ maxFailures: 2, baseLockMs: 10_000, maxLockMs: 15_000 });
    expect(failTimes(2)[1]).toEqual({ multipleFailed: true, lockedForSeconds: 10 });
  });

  it("forgets quiet entries, so memory follows recent activity", () => {
    const { clock, guard } = setup();
    for (let i = 0; i < 500; i++) guard.fail(`user${i}@example.org`, "203.0.113.1");
    expect(guard.size()).toBe(1000); // a pair and a username each
    clock.advance(15 * MIN);
    guard.check("someone@example.org");
    expect(guard.size()).toBe(0);
  });

  it("keeps at most maxEntries, dropping the least recently seen", () => {
    const { clock, guard } = setup({ maxEntries: 4 });
    for (const user of ["a", "b", "c"]) {
      clock.advance(1);
      guard.fail(user);
    }
    expect(guard.size()).toBe(4);
    // "a" (one failure) was dropped: four more failures do not reach the threshold of five.
    const again = Array.from({ length: 4 }, () => guard.fail("a"));
    expect(again.some((r) => r.multipleFailed)).toBe(false);
  });

  it.each([
    { name: "zero failures", options: { maxFailures: 0 } },
    { name: "a fractional window", options: { windowMs: 0.5 } },
    { name: "a negative cap", options: { maxLockMs: -1 } },
    { name: "no room", options: { maxEntries: 0 } },
  ])("refuses $name", ({ options }) => {
    expect(() => createLoginGuard({ clock: createFakeClock(), ...options })).toThrow(RangeError);
  });
});
