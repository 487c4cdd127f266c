import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFakeClock, createMemoryStorage, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { addressGroup, createLoginGuard, type LoginGuardOptions } from "./login-guard.js";

const MIN = 60_000;

function setup(options: Partial<Omit<LoginGuardOptions, "clock">> = {}) {
  const clock = createFakeClock();
  const storage = options.storage ?? createMemoryStorage();
  const guard = createLoginGuard({ clock, ...options, storage });
  /** `n` wrong passwords in a row, one second apart; the results. */
  const failTimes = async (n: number, user = "ada@example.org", address?: string) => {
    const results = [];
    for (let i = 0; i < n; i++) {
      clock.advance(1000);
      results.push(await guard.fail(user, address));
    }
    return results;
  };
  return { clock, guard, storage, failTimes };
}

describe("createLoginGuard", () => {
  it("allows four failures, locks on the fifth for one minute and reports it once", async () => {
    const { guard, failTimes } = setup();
    const results = await failTimes(5);
    expect(results.slice(0, 4)).toEqual(Array(4).fill({ multipleFailed: false }));
    expect(results[4]).toEqual({ multipleFailed: true, lockedForSeconds: 60 });
    expect(await guard.check("ada@example.org")).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it("refuses while locked, counts down, and unlocks by itself", async () => {
    const { clock, guard, failTimes } = setup();
    await failTimes(5);
    clock.advance(59_000);
    expect(await guard.check("ada@example.org")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1000);
    expect(await guard.check("ada@example.org")).toEqual({ allowed: true });
  });

  it("does not count or report failures made while locked", async () => {
    const { guard, failTimes } = setup();
    await failTimes(5);
    const during = await failTimes(10);
    expect(during.every((r) => !r.multipleFailed)).toBe(true);
    expect(during[9]).toEqual({ multipleFailed: false, lockedForSeconds: 50 });
    expect(await guard.check("ada@example.org")).toEqual({ allowed: false, retryAfterSeconds: 50 });
  });

  it.each([
    { lockout: 1, seconds: 60 },
    { lockout: 2, seconds: 120 },
    { lockout: 3, seconds: 240 },
    { lockout: 4, seconds: 480 },
    { lockout: 5, seconds: 900 },
    { lockout: 6, seconds: 900 },
    { lockout: 9, seconds: 900 },
  ])("lockout $lockout in a row lasts $seconds s (doubling, capped at 15 min)", async ({ lockout, seconds }) => {
    const { clock, failTimes } = setup();
    let last;
    for (let i = 0; i < lockout; i++) {
      last = (await failTimes(5))[4]!;
      expect(last.multipleFailed).toBe(true);
      clock.advance(last.lockedForSeconds! * 1000);
    }
    expect(last!.lockedForSeconds).toBe(seconds);
  });

  it("forgets failures older than the window", async () => {
    const { clock, guard, failTimes } = setup();
    await failTimes(4);
    clock.advance(15 * MIN);
    expect((await failTimes(4)).every((r) => !r.multipleFailed)).toBe(true);
    expect((await guard.check("ada@example.org")).allowed).toBe(true);
    expect((await failTimes(1))[0]!.multipleFailed).toBe(true);
  });

  it("starts lockout growth over after a quiet window", async () => {
    const { clock, failTimes } = setup();
    await failTimes(5);
    clock.advance(MIN + 15 * MIN);
    expect((await failTimes(5))[4]).toEqual({ multipleFailed: true, lockedForSeconds: 60 });
  });

  it("keeps growth for a lockout that follows soon after the last", async () => {
    const { clock, failTimes } = setup();
    await failTimes(5);
    clock.advance(MIN + 14 * MIN);
    expect((await failTimes(5))[4]).toEqual({ multipleFailed: true, lockedForSeconds: 120 });
  });

  it("a success clears failures and growth", async () => {
    const { clock, guard, failTimes } = setup();
    await failTimes(5);
    clock.advance(MIN);
    await failTimes(4);
    await guard.succeed("ada@example.org");
    expect((await failTimes(4)).every((r) => !r.multipleFailed)).toBe(true);
    expect((await failTimes(1))[0]).toEqual({ multipleFailed: true, lockedForSeconds: 60 });
  });

  it.each([
    { name: "case", other: "ADA@Example.org", sameLock: true },
    { name: "surrounding spaces", other: " ada@example.org ", sameLock: true },
    { name: "another username", other: "grace@example.org", sameLock: false },
  ])("usernames differing by $name share a lock: $sameLock", async ({ other, sameLock }) => {
    const { guard, failTimes } = setup();
    await failTimes(5);
    expect((await guard.check(other)).allowed).toBe(!sameLock);
  });

  it("an attacker at one address does not lock the user out at another", async () => {
    const { guard, failTimes } = setup();
    expect((await failTimes(5, "ada@example.org", "203.0.113.9"))[4]!.multipleFailed).toBe(true);
    expect((await guard.check("ada@example.org", "203.0.113.9")).allowed).toBe(false);
    expect(await guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: true });
  });

  it("many addresses together only pause the username briefly, at a fixed length", async () => {
    const { clock, guard } = setup();
    const results = [];
    for (let i = 0; i < 20; i++) {
      clock.advance(1000);
      results.push(await guard.fail("ada@example.org", `203.0.113.${i}`));
    }
    expect(results.filter((r) => r.multipleFailed)).toHaveLength(1);
    expect(results[19]).toEqual({ multipleFailed: true, lockedForSeconds: 30 });
    expect(await guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: false, retryAfterSeconds: 30 });
    clock.advance(30_000);
    expect(await guard.check("ada@example.org", "198.51.100.7")).toEqual({ allowed: true });
    // The next pause is no longer: the username-wide limit never grows.
    const again = [];
    for (let i = 0; i < 20; i++) {
      clock.advance(1000);
      again.push(await guard.fail("ada@example.org", `203.0.114.${i}`));
    }
    expect(again[19]).toEqual({ multipleFailed: true, lockedForSeconds: 30 });
  });

  it("a rotating-address attack never keeps out an address the user logged in from", async () => {
    const { clock, guard } = setup();
    await guard.succeed("ada@example.org", "198.51.100.7");
    clock.advance(29 * 24 * 60 * MIN); // a known address stays known for 30 days
    let refused = 0;
    // Six hours of 50 rotating addresses, each failing as often as it is let through.
    for (let s = 0; s < 6 * 3600; s++) {
      clock.advance(1000);
      const address = `203.0.${s % 50}.${Math.floor(s / 50) % 250}`;
      if ((await guard.check("ada@example.org", address)).allowed) await guard.fail("ada@example.org", address);
      if (!(await guard.check("ada@example.org", "198.51.100.7")).allowed) refused++;
    }
    expect(refused).toBe(0);
    // An address not seen before is only paused, briefly.
    const fresh = await guard.check("ada@example.org", "192.0.2.99");
    if (!fresh.allowed) expect(fresh.retryAfterSeconds).toBeLessThanOrEqual(30);
  });

  it("a known address expires after 30 days, and a wrong password from it still counts for its own pair", async () => {
    const { clock, guard } = setup();
    await guard.succeed("ada@example.org", "198.51.100.7");
    clock.advance(31 * 24 * 60 * MIN);
    for (let i = 0; i < 20; i++) await guard.fail("ada@example.org", `203.0.113.${i}`);
    expect((await guard.check("ada@example.org", "198.51.100.7")).allowed).toBe(false);
    const { guard: g2, failTimes } = setup();
    await g2.succeed("ada@example.org", "198.51.100.7");
    expect((await failTimes(5, "ada@example.org", "198.51.100.7"))[4]!.multipleFailed).toBe(true);
  });

  it("a single attacking address, however persistent, cannot lock out or pause another address", async () => {
    const { clock, guard } = setup();
    let refusedElsewhere = 0;
    for (let s = 0; s < 4 * 3600; s++) {
      clock.advance(1000);
      if ((await guard.check("ada@example.org", "203.0.113.9")).allowed) await guard.fail("ada@example.org", "203.0.113.9");
      if (!(await guard.check("ada@example.org", "198.51.100.7")).allowed) refusedElsewhere++;
    }
    expect((await guard.check("ada@example.org", "203.0.113.9")).allowed).toBe(false);
    expect(refusedElsewhere).toBe(0);
  });

  it("counts an IPv6 client by its /64: rotating inside it is one address", async () => {
    const { clock, guard } = setup();
    const results = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      results.push(await guard.fail("ada@example.org", `2001:db8:1:2:${i.toString(16)}::${i + 1}`));
    }
    expect(results[4]!.multipleFailed).toBe(true);
    expect((await guard.check("ada@example.org", "2001:db8:1:2:ffff::9")).allowed).toBe(false);
    expect((await guard.check("ada@example.org", "2001:0db8:0001:0002::1")).allowed).toBe(false);
    expect(await guard.check("ada@example.org", "2001:db8:1:3::1")).toEqual({ allowed: true });
    // Many addresses in one /64 are one address: they cannot pause the username.
    for (let i = 0; i < 40; i++) {
      clock.advance(1000);
      await guard.fail("ada@example.org", `2001:db8:1:2::${(i + 10).toString(16)}`);
    }
    expect(await guard.check("ada@example.org", "192.0.2.1")).toEqual({ allowed: true });
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
  ])("addressGroup(%s) is %s", async (address, group) => {
    expect(addressGroup(address)).toBe(group);
  });

  it("honours custom thresholds and lock lengths", async () => {
    const { failTimes } = setup({ maxFailures: 2, baseLockMs: 10_000, maxLockMs: 15_000 });
    expect((await failTimes(2))[1]).toEqual({ multipleFailed: true, lockedForSeconds: 10 });
  });

  it("locks an address that fails across many accounts, sparing accounts that know it", async () => {
    const { clock, guard } = setup();
    await guard.succeed("grace@example.org", "203.0.113.7");
    const results = [];
    for (let i = 0; i < 30; i++) {
      clock.advance(1000);
      results.push(await guard.fail(`user${i}@example.org`, "203.0.113.7"));
    }
    expect(results.slice(0, 29).every((r) => r.lockedForSeconds === undefined)).toBe(true);
    // The address lock is no account's lockout: no multiple_failed_login for user29.
    expect(results[29]).toEqual({ multipleFailed: false, lockedForSeconds: 60 });
    expect(await guard.check("someone@example.org", "203.0.113.7")).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(await guard.check("grace@example.org", "203.0.113.7")).toEqual({ allowed: true });
    expect(await guard.check("someone@example.org", "198.51.100.7")).toEqual({ allowed: true });
    // Logging in to one's own account does not wipe the address's count.
    await guard.succeed("grace@example.org", "203.0.113.7");
    clock.advance(60_000);
    expect(await guard.check("someone@example.org", "203.0.113.7")).toEqual({ allowed: true });
    const next = [];
    for (let i = 0; i < 30; i++) next.push(await guard.fail(`other${i}@example.org`, "203.0.113.7"));
    expect(next[29]).toEqual({ multipleFailed: false, lockedForSeconds: 120 });
  });

  it("keeps its state in the storage: a flood of other keys evicts no lockout", async () => {
    const { clock, guard, storage, failTimes } = setup({ maxFailuresPerAddress: 1_000_000 });
    await failTimes(5, "ada@example.org", "203.0.113.9");
    // 30,000 distinct accounts and addresses, as an attacker filling a table would send:
    // 60,000 pairs and accounts, past the 50,000 entries the in-memory guard used to keep.
    for (let i = 0; i < 30_000; i++) await guard.fail(`user${i}@example.org`, `198.18.${i >> 8}.${i & 255}`);
    clock.advance(30_000);
    expect(await guard.check("ada@example.org", "203.0.113.9")).toEqual({ allowed: false, retryAfterSeconds: 30 });
    // A second guard on the same storage (another process) sees the same lockout.
    const other = createLoginGuard({ storage, clock });
    expect(await other.check("ada@example.org", "203.0.113.9")).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });

  it("counts any input, however long, under a short hashed key that holds no username", async () => {
    const { guard, storage, failTimes } = setup();
    const keys: string[] = [];
    const spy: Storage = { ...storage, updateLimit: (key, now, fn) => (keys.push(key), storage.updateLimit(key, now, fn)) };
    const g = createLoginGuard({ storage: spy, clock: createFakeClock() });
    await g.fail("x".repeat(100_000), "203.0.113.9");
    expect(keys.length).toBeGreaterThan(0);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThan(80);
    expect(keys.join(" ")).not.toContain("xxxx");
    expect((await failTimes(5, "Ada@Example.org "))[4]!.multipleFailed).toBe(true);
    expect((await guard.check("ada@example.org")).allowed).toBe(false);
  });

  it.each([
    { name: "zero failures", options: { maxFailures: 0 } },
    { name: "a fractional window", options: { windowMs: 0.5 } },
    { name: "a negative cap", options: { maxLockMs: -1 } },
    { name: "no address limit", options: { maxFailuresPerAddress: 0 } },
    { name: "no known addresses", options: { maxKnownAddresses: 0 } },
    { name: "a zero username pause", options: { userLockMs: 0 } },
  ])("refuses $name", async ({ options }) => {
    expect(() => createLoginGuard({ storage: createMemoryStorage(), clock: createFakeClock(), ...options })).toThrow(RangeError);
  });
});

describe("createLoginGuard on one SQLite file from two processes", () => {
  const dir = mkdtempSync(join(tmpdir(), "records-guard-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("5 failed logins spread over 2 processes lock the pair, seen by both", async () => {
    const path = join(dir, "records.db");
    const a: Storage = createSqliteStorage({ path });
    const b: Storage = createSqliteStorage({ path });
    const clock = createFakeClock();
    const guards = [createLoginGuard({ storage: a, clock }), createLoginGuard({ storage: b, clock })];
    const results = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      results.push(await guards[i % 2]!.fail("ada@example.org", "203.0.113.9"));
    }
    expect(results.map((r) => r.multipleFailed)).toEqual([false, false, false, false, true]);
    for (const g of guards) expect(await g.check("ada@example.org", "203.0.113.9")).toEqual({ allowed: false, retryAfterSeconds: 60 });
    await guards[0]!.succeed("ada@example.org", "203.0.113.9");
    expect(await guards[1]!.check("ada@example.org", "203.0.113.9")).toEqual({ allowed: true });
    await a.close();
    await b.close();
  });
});
