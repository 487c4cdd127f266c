import { createFakeClock } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { addressGroup, createLoginGuard, type LoginGuardOptions } from "./login-guard.js";

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

  it("many addresses together only pause the username briefly, at a fixed length", () => {
    const { clock, guard } = setup();
    const results = Array.from({ length: 20 }, (_, i) => {
      clock.advance(1000);
      return guard.fail("ada@example.org", `203.0.113.${i}`);
    });
    expect(results.filter((r) => r.multipleFailed)).toHaveLength(1);
    expect(results[19]).toEqual({ multipleFailed: true, lockedForSeconds: 30 });
    expect(guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: false, retryAfterSeconds: 30 });
    clock.advance(30_000);
    expect(guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: true });
    // The next pause is no longer: the username-wide limit never grows.
    const again = Array.from({ length: 20 }, (_, i) => {
      clock.advance(1000);
      return guard.fail("ada@example.org", `203.0.114.${i}`);
    });
    expect(again[19]).toEqual({ multipleFailed: true, lockedForSeconds: 30 });
  });

  it("a rotating-address attack never keeps out an address the user logged in from", () => {
    const { clock, guard } = setup();
    guard.succeed("ada@example.org", "198.51.100.7");
    clock.advance(29 * 24 * 60 * MIN); // a known address stays known for 30 days
    let refused = 0;
    // Six hours of 50 rotating addresses, each failing as often as it is let through.
    for (let s = 0; s < 6 * 3600; s++) {
      clock.advance(1000);
      const address = `203.0.${s % 50}.${Math.floor(s / 50) % 250}`;
      if (guard.check("ada@example.org", address).allowed) guard.fail("ada@example.org", address);
      if (!guard.check("ada@example.org", "198.51.100.7").allowed) refused++;
    }
    expect(refused).toBe(0);
    // An address not seen before is only paused, briefly.
    const fresh = guard.check("ada@example.org", "192.0.2.99");
    if (!fresh.allowed) expect(fresh.retryAfterSeconds).toBeLessThanOrEqual(30);
  });

  it("a known address expires after 30 days, and a wrong password from it still counts for its own pair", () => {
    const { clock, guard } = setup();
    guard.succeed("ada@example.org", "198.51.100.7");
    clock.advance(31 * 24 * 60 * MIN);
    for (let i = 0; i < 20; i++) guard.fail("ada@example.org", `203.0.113.${i}`);
    expect(guard.check("ada@example.org", "198.51.100.7").allowed).toBe(false);
    const { guard: g2, failTimes } = setup();
    g2.succeed("ada@example.org", "198.51.100.7");
    expect(failTimes(5, "ada@example.org", "198.51.100.7")[4]!.multipleFailed).toBe(true);
  });

  it("a single attacking address, however persistent, cannot lock out or pause another address", () => {
    const { clock, guard } = setup();
    let refusedElsewhere = 0;
    for (let s = 0; s < 4 * 3600; s++) {
      clock.advance(1000);
      if (guard.check("ada@example.org", "203.0.113.9").allowed) guard.fail("ada@example.org", "203.0.113.9");
      if (!guard.check("ada@example.org", "198.51.100.7").allowed) refusedElsewhere++;
    }
    expect(guard.check("ada@example.org", "203.0.113.9").allowed).toBe(false);
    expect(refusedElsewhere).toBe(0);
  });

  it("counts an IPv6 client by its /64: rotating inside it is one address", () => {
    const { clock, guard } = setup();
    const results = Array.from({ length: 5 }, (_, i) => {
      clock.advance(1000);
      return guard.fail("ada@example.org", `2001:db8:1:2:${i.toString(16)}::${i + 1}`);
    });
    expect(results[4]!.multipleFailed).toBe(true);
    expect(guard.check("ada@example.org", "2001:db8:1:2:ffff::9").allowed).toBe(false);
    expect(guard.check("ada@example.org", "2001:0db8:0001:0002::1").allowed).toBe(false);
    expect(guard.check("ada@example.org", "2001:db8:1:3::1")).toEqual({ allowed: true });
    // Many addresses in one /64 are one address: they cannot pause the username.
    for (let i = 0; i < 40; i++) {
      clock.advance(1000);
      guard.fail("ada@example.org", `2001:db8:1:2::${(i + 10).toString(16)}`);
    }
    expect(guard.check("ada@example.org", "192.0.2.1")).toEqual({ allowed: true });
  });

  it.each([
    ["2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:DB8:0:0:1:2:3:4", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["[2001:db8::1]", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["203.0.113.9", "203.0.113.9"],
    ["", ""],
    ["not:an:address::x", "not:an:address::x"],
  ])("addressGroup(%s) is %s", (address, group) => {
    expect(addressGroup(address)).toBe(group);
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
    { name: "no known addresses", options: { maxKnownAddresses: 0 } },
    { name: "a zero username pause", options: { userLockMs: 0 } },
  ])("refuses $name", ({ options }) => {
    expect(() => createLoginGuard({ clock: createFakeClock(), ...options })).toThrow(RangeError);
  });
});
