/**
 * @module auth/passwords
 * Password hashing with scrypt from node:crypto. The stored string names its algorithm
 * and cost parameters (`scrypt$N$r$p$salt$hash`), so the cost can be raised later while
 * old hashes keep verifying.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt cost parameters for new hashes (about 16 MiB of memory, tens of ms per hash). */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Refuse stored parameters beyond these, so a corrupted row cannot make one login eat the machine. */
const MAX_N = 1 << 20;
const MAX_RP = 64;

/**
 * Hashes a password with a fresh random salt.
 *
 * @example
 * const stored = await hashPassword("correct horse"); // "scrypt$16384$8$1$<salt hex>$<hash hex>"
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await _scrypt(password, salt, KEY_BYTES, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("hex"), hash.toString("hex")].join("$");
}

/**
 * True when `password` matches `stored` (a `hashPassword` result). Compares in constant
 * time; a malformed stored string never matches.
 *
 * @example
 * await verifyPassword("correct horse", stored) // true
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = _parse(stored);
  if (!parsed) return false;
  const actual = await _scrypt(password, parsed.salt, parsed.hash.length, parsed.cost);
  return timingSafeEqual(actual, parsed.hash);
}

// --- internal ---

interface _Parsed {
  cost: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

function _parse(stored: string): _Parsed | undefined {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const hex = /^(?:[0-9a-f]{2})+$/;
  if (!hex.test(parts[4]!) || !hex.test(parts[5]!)) return undefined;
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N) return undefined;
  if (![r, p].every((v) => Number.isInteger(v) && v >= 1 && v <= MAX_RP)) return undefined;
  return { cost: { N, r, p }, salt: Buffer.from(parts[4]!, "hex"), hash: Buffer.from(parts[5]!, "hex") };
}

function _scrypt(password: string, salt: Buffer, keylen: number, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; give it that plus headroom instead of the 32 MiB default.
  const maxmem = 128 * cost.N * cost.r * 2;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, keylen, { ...cost, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}
