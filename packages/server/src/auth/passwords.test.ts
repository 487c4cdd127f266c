import { describe, expect, it } from "vitest";
import { createPasswordHasher, DEFAULT_SCRYPT_COST, defaultPasswordHasher, hashPassword, verifyPassword } from "./passwords.js";

const CHEAP = { N: 16, r: 1, p: 1 };

describe("the shipped cost", () => {
  it("is scrypt at N = 2^17 (128 MiB), r = 8, p = 1, used by default for new hashes", async () => {
    expect(DEFAULT_SCRYPT_COST).toEqual({ N: 131_072, r: 8, p: 1 });
    expect(defaultPasswordHasher().cost).toEqual(DEFAULT_SCRYPT_COST);
    expect(createPasswordHasher().cost).toEqual(DEFAULT_SCRYPT_COST);
    expect(await hashPassword("a long password")).toMatch(/^scrypt\$131072\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
  });
});

describe("hashPassword / verifyPassword", () => {
  it("hashes to a self-describing scrypt string with a fresh salt each time", async () => {
    const a = await hashPassword("pw", CHEAP);
    const b = await hashPassword("pw", CHEAP);
    expect(a).toMatch(/^scrypt\$16\$1\$1\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });

  it("verifies the right password and refuses others", async () => {
    const stored = await hashPassword("correct horse", CHEAP);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct hors", stored)).toBe(false);
    expect(await verifyPassword("Correct horse", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("treats canonically equal unicode passwords as the same password", async () => {
    const stored = await hashPassword("caf\u00e9", CHEAP);
    expect(await verifyPassword("cafe\u0301", stored)).toBe(true);
  });

  it("verifies hashes made with other cost parameters (so the cost can change later)", async () => {
    const stored = await hashPassword("pw", CHEAP);
    const salt = stored.split("$")[4]!;
    const { scryptSync } = await import("node:crypto");
    const hash = scryptSync("pw", Buffer.from(salt, "hex"), 32, { N: 1024, r: 8, p: 1 }).toString("hex");
    expect(await verifyPassword("pw", `scrypt$1024$8$1$${salt}$${hash}`)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["other algorithm", "bcrypt$2b$10$abcdef"],
    ["too few parts", "scrypt$16384$8$1$abcd"],
    ["N not a power of two", "scrypt$1000$8$1$abcd$abcd"],
    ["N too large", `scrypt$${2 ** 24}$8$1$abcd$abcd`],
    ["r zero", "scrypt$16384$0$1$abcd$abcd"],
    ["p huge", "scrypt$16384$8$100000$abcd$abcd"],
    ["more than 1 GiB of memory", `scrypt$${2 ** 20}$16$1$abcd$abcd`],
    ["salt not hex", "scrypt$16384$8$1$zz$abcd"],
    ["hash odd length", "scrypt$16384$8$1$abcd$abc"],
  ])("never matches a malformed stored hash (%s)", async (_name, stored) => {
    expect(await verifyPassword("pw", stored)).toBe(false);
  });
});

describe("createPasswordHasher", () => {
  it("hashes at its own cost and verifies hashes of any cost", async () => {
    const hasher = createPasswordHasher(CHEAP);
    const own = await hasher.hash("a long password");
    expect(own).toMatch(/^scrypt\$16\$1\$1\$/);
    expect(await hasher.verify("a long password", own)).toBe(true);
    expect(await hasher.verify("a long password", await hashPassword("a long password", { N: 32, r: 2, p: 1 }))).toBe(true);
    expect(await hasher.verify("another password", own)).toBe(false);
  });

  it.each([
    { name: "its own parameters", stored: "scrypt$16$1$1$" + "ab".repeat(16) + "$" + "cd".repeat(32), rehash: false },
    { name: "a lower N", stored: "scrypt$8$1$1$" + "ab".repeat(16) + "$" + "cd".repeat(32), rehash: true },
    { name: "a higher N", stored: "scrypt$32$1$1$" + "ab".repeat(16) + "$" + "cd".repeat(32), rehash: true },
    { name: "another r", stored: "scrypt$16$8$1$" + "ab".repeat(16) + "$" + "cd".repeat(32), rehash: true },
    { name: "another p", stored: "scrypt$16$1$2$" + "ab".repeat(16) + "$" + "cd".repeat(32), rehash: true },
    { name: "a shorter salt", stored: "scrypt$16$1$1$" + "ab".repeat(8) + "$" + "cd".repeat(32), rehash: true },
    { name: "a malformed hash (nothing to rehash from)", stored: "disabled", rehash: false },
  ])("needsRehash is $rehash for $name", ({ stored, rehash }) => {
    expect(createPasswordHasher(CHEAP).needsRehash(stored)).toBe(rehash);
  });

  it("never matches a malformed or disabled hash, nor the dummy", async () => {
    const hasher = createPasswordHasher(CHEAP);
    expect(await hasher.verify("disabled", "disabled")).toBe(false);
    expect(await hasher.verify("", "")).toBe(false);
    expect(await hasher.verifyDummy("anything")).toBe(false);
  });

  it.each([
    { name: "N not a power of two", cost: { N: 1000, r: 8, p: 1 } },
    { name: "N = 1", cost: { N: 1, r: 8, p: 1 } },
    { name: "r = 0", cost: { N: 1024, r: 0, p: 1 } },
    { name: "more than 1 GiB", cost: { N: 2 ** 20, r: 16, p: 1 } },
  ])("refuses a cost with $name", ({ cost }) => {
    expect(() => createPasswordHasher(cost)).toThrow(RangeError);
  });
});
