import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIdSource, createSequentialIds, isRecordId, RECORD_ID_RANDOM_BITS, type IdSource } from "./ids.js";
import { createRecordEngine } from "./records/engine.js";
import { createMemoryStorage } from "./memory/memory.js";
import { createFakeClock } from "./time.js";

/** The random part of an id (its last 13 hex digits) as a number (52 bits fit exactly). */
const randomPart = (id: string): number => Number.parseInt(id.slice(11), 16);
const idAt = (ms: number, random?: (b: Uint8Array) => void) => createIdSource({ now: () => new Date(ms) }, random)();

/** The design this replaces: seconds, 5 random bytes fixed per source, a 3-byte counter. */
function legacyIdSource(clock: { now(): Date }): IdSource {
  const middle = Array.from(crypto.getRandomValues(new Uint8Array(5)), (b) => b.toString(16).padStart(2, "0")).join("");
  let counter = crypto.getRandomValues(new Uint32Array(1))[0]! & 0xffffff;
  return () => {
    counter = (counter + 1) & 0xffffff;
    return (Math.floor(clock.now().getTime() / 1000) >>> 0).toString(16).padStart(8, "0") + middle + counter.toString(16).padStart(6, "0");
  };
}

/**
 * What an attacker holding A1 and A2 (two ids of their own flock) would try for the ids
 * written between them: every id whose time lies between theirs and whose last 6 hex
 * digits (24 bits) are within `span` of A1's or A2's, keeping the rest of A1 or A2. A
 * counter-based or per-process-random design puts every neighbour in this set.
 */
function inCandidateSet(a1: string, a2: string, id: string, span = 1 << 20): boolean {
  if (id.slice(0, 11) < a1.slice(0, 11) || id.slice(0, 11) > a2.slice(0, 11)) return false;
  const near = (a: string) => id.slice(8, 18) === a.slice(8, 18) && Math.abs(Number.parseInt(id.slice(18), 16) - Number.parseInt(a.slice(18), 16)) <= span;
  return near(a1) || near(a2);
}

/** Ids A1, B1..Bn, A2 written through one engine (one id source for every flock, as in a server). */
async function writeBetween(n: number, ids?: IdSource): Promise<{ a1: string; bs: string[]; a2: string }> {
  const storage = createMemoryStorage();
  const clock = createFakeClock("2026-01-15T10:00:00.000Z");
  const engine = createRecordEngine({ storage, clock, ...(ids ? { ids } : {}) });
  for (const identifier of ["alpha", "beta"]) await storage.createFlock({ identifier, name: identifier, created: "2026-01-15T10:00:00.000000" });
  const a1 = (await engine.create("alpha", "journal", { title: "mine" })).id;
  const bs: string[] = [];
  for (let i = 0; i < n; i++) bs.push((await engine.create("beta", "journal", { title: `theirs ${i}` })).id);
  const a2 = (await engine.create("alpha", "journal", { title: "mine again" })).id;
  return { a1, bs, a2 };
}

describe("createIdSource", () => {
  it("makes 24 lower-case hex characters: Unix seconds, the millisecond, 52 random bits", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 * 1000 - 1 }), (ms) => {
        const id = idAt(ms);
        expect(isRecordId(id)).toBe(true);
        expect(Number.parseInt(id.slice(0, 8), 16)).toBe(Math.floor(ms / 1000));
        expect(Number.parseInt(id.slice(8, 11), 16)).toBe(ms % 1000);
      }),
    );
    expect(RECORD_ID_RANDOM_BITS).toBe(52);
    expect(idAt(Date.parse("2026-01-15T10:00:00.123Z"), (b) => b.fill(0xff))).toBe(`${(1768471200).toString(16)}07bfffffffffffff`);
  });

  it("orders ids by time across milliseconds, whatever the random parts (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 * 1000 - 2 }),
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.uint8Array({ minLength: 1, maxLength: 1 }),
        fc.uint8Array({ minLength: 1, maxLength: 1 }),
        (t, dt, r1, r2) => {
          const later = Math.min(t + dt, 2 ** 32 * 1000 - 1);
          fc.pre(later > t);
          expect(idAt(t, (b) => b.fill(r1[0]!)) < idAt(later, (b) => b.fill(r2[0]!))).toBe(true);
        },
      ),
    );
  });

  it("keeps its order against ids of the old format across seconds (same seconds prefix)", () => {
    const clock = createFakeClock("2026-01-15T10:00:00.999Z");
    const old = legacyIdSource(clock)();
    clock.advance(1);
    expect(createIdSource(clock)() > old).toBe(true);
  });

  it("never repeats within a burst in one millisecond", () => {
    const next = createIdSource(createFakeClock());
    const ids = new Set(Array.from({ length: 100_000 }, next));
    expect(ids.size).toBe(100_000);
  });

  it("uses each random byte once, drawing a block at a time", () => {
    let calls = 0;
    let counter = 0;
    const next = createIdSource(createFakeClock(), (b) => {
      calls += 1;
      for (let i = 0; i < b.length; i++) b[i] = counter++ & 0xff;
    });
    const ids = Array.from({ length: 130 }, next);
    expect(new Set(ids).size).toBe(130);
    expect(calls).toBe(3);
  });
});

describe("neighbouring ids cannot be derived (issue 15)", () => {
  it("ids of another flock written between two ids of one flock are not in any candidate set computed from those two", async () => {
    // The same millisecond throughout (a fake clock): the time gives the attacker everything but the random part.
    const { a1, bs, a2 } = await writeBetween(200);
    expect(a1.slice(0, 11)).toBe(a2.slice(0, 11));
    for (const b of bs) expect(inCandidateSet(a1, a2, b)).toBe(false);
    // Nor are they near each other: no random part is within 2^16 of another (chance ~ 202²/2 * 2^-35).
    const all = [a1, ...bs, a2].map(randomPart).sort((x, y) => x - y);
    for (let i = 1; i < all.length; i++) expect(all[i]! - all[i - 1]!).toBeGreaterThan(2 ** 16);
  });

  it("the same check finds every neighbour under the old design (so it can fail)", async () => {
    const clock = createFakeClock("2026-01-15T10:00:00.000Z");
    const { a1, bs, a2 } = await writeBetween(200, legacyIdSource(clock));
    for (const b of bs) expect(inCandidateSet(a1, a2, b)).toBe(true);
  });

  it("the random parts of consecutive ids are independent: each bit, and each bit of their XOR, is set about half the time", () => {
    const n = 20_000;
    const next = createIdSource(createFakeClock());
    const parts = Array.from({ length: n }, () => randomPart(next()));
    // Binomial(n, 1/2): mean n/2, sd sqrt(n)/2 ≈ 71; 6 sd either way fails with probability ~1e-9 per bit.
    const bound = 6 * (Math.sqrt(n) / 2);
    for (let bit = 0; bit < RECORD_ID_RANDOM_BITS; bit++) {
      const weight = 2 ** bit;
      let set = 0;
      let flips = 0;
      for (let i = 0; i < n; i++) {
        const here = Math.floor(parts[i]! / weight) % 2;
        set += here;
        if (i > 0) flips += here ^ (Math.floor(parts[i - 1]! / weight) % 2);
      }
      expect(Math.abs(set - n / 2)).toBeLessThan(bound);
      expect(Math.abs(flips - (n - 1) / 2)).toBeLessThan(bound);
    }
    // And no two consecutive ids have random parts within 2^16 of each other (chance ~ n * 2^-35).
    for (let i = 1; i < n; i++) expect(Math.abs(parts[i]! - parts[i - 1]!)).toBeGreaterThan(2 ** 16);
  });
});

describe("createSequentialIds", () => {
  it("counts up in hex, for tests", () => {
    const next = createSequentialIds();
    expect([next(), next()]).toEqual(["000000000000000000000001", "000000000000000000000002"]);
    expect(createSequentialIds("ff")()).toBe("ff0000000000000000000001");
  });
});
