import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords.js";

describe("hashPassword / verifyPassword", () => {
  it("hashes to a self-describing scrypt string with a fresh salt each time", async () => {
    const a = await hashPassword("pw");
    const b = await hashPassword("pw");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });

  it("verifies the right password and refuses others", async () => {
    const stored = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct hors", stored)).toBe(false);
    expect(await verifyPassword("Correct horse", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("treats canonically equal unicode passwords as the same password", async () => {
    const stored = await hashPassword("caf\u00e9");
    expect(await verifyPassword("cafe\u0301", stored)).toBe(true);
  });

  it("verifies hashes made with other cost parameters (so the cost can change later)", async () => {
    const stored = await hashPassword("pw");
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
    ["salt not hex", "scrypt$16384$8$1$zz$abcd"],
    ["hash odd length", "scrypt$16384$8$1$abcd$abc"],
  ])("never matches a malformed stored hash (%s)", async (_name, stored) => {
    expect(await verifyPassword("pw", stored)).toBe(false);
  });
});
