/**
 * Which scrypt cost each check really runs at: node:crypto's scrypt is wrapped to record
 * its N, so the dummy check of an unknown username is shown to cost what a real one does.
 */
import { describe, expect, it, vi } from "vitest";

const seen = vi.hoisted(() => [] as number[]);
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  const scrypt = (...args: Parameters<typeof crypto.scrypt>) => {
    seen.push((args[3] as { N: number }).N);
    return (crypto.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...crypto, default: { ...crypto, scrypt }, scrypt };
});

const { createPasswordHasher, hashPassword } = await import("./passwords.js");

describe("the cost of every check", () => {
  it("an unknown username's dummy check and a malformed hash's check run at the hasher's cost", async () => {
    const hasher = createPasswordHasher({ N: 64, r: 1, p: 1 });
    seen.length = 0;
    await hasher.verifyDummy("a guess");
    await hasher.verify("a guess", "disabled");
    // The dummy hash is made once (at N = 64), then each check runs at N = 64.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen)).toEqual(new Set([64]));
  });

  it("a real check runs at the stored hash's cost", async () => {
    const hasher = createPasswordHasher({ N: 64, r: 1, p: 1 });
    const stored = await hashPassword("a long password", { N: 32, r: 1, p: 1 });
    seen.length = 0;
    await hasher.verify("a long password", stored);
    expect(seen).toEqual([32]);
  });
});
