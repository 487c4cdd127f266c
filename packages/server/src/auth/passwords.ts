/**
 * @module auth/passwords
 * Password hashing with scrypt from node:crypto. The stored string names its algorithm and
 * cost parameters (`scrypt$N$r$p$salt$hash`), so old hashes keep verifying after the cost
 * changes, and a login with the right password rehashes at the current cost. The cost is a
 * parameter of the hasher (the shipped default is N = 2^17: 128 MiB and about a third of a
 * second per hash here), so tests that are not about hashing can use a cheap one.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt's cost parameters: N (CPU and memory, a power of two), r (block size), p (parallelism). */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** The shipped cost: 128 × N × r = 128 MiB of memory per hash (OWASP's scrypt minimum is N = 2^17). */
export const DEFAULT_SCRYPT_COST: Readonly<ScryptCost> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });

/** Hashing and checking passwords at one cost. */
export interface PasswordHasher {
  readonly cost: Readonly<ScryptCost>;
  /** A new hash of `password` with a fresh random salt. */
  hash(password: string): Promise<string>;
  /**
   * True when `password` matches `stored`. A malformed `stored` never matches, and costs the
   * same work as a real check (a disabled account answers no faster than a real one).
   */
  verify(password: string, stored: string): Promise<boolean>;
  /** Does a real check against a hash of a random password: what an unknown username costs. Always false. */
  verifyDummy(password: string): Promise<false>;
  /** True when `stored` is well formed but was made with other parameters than this hasher's. */
  needsRehash(stored: string): boolean;
}

/**
 * A hasher at `cost` (default `DEFAULT_SCRYPT_COST`). Throws `RangeError` for parameters
 * scrypt would refuse or that exceed what a stored hash may ask for.
 *
 * @example
 * const passwords = createPasswordHasher();
 * const stored = await passwords.hash("correct horse"); // "scrypt$131072$8$1$<salt>$<hash>"
 * await passwords.verify("correct horse", stored); // true
 */
export function createPasswordHasher(cost: ScryptCost = DEFAULT_SCRYPT_COST): PasswordHasher {
  const own = Object.freeze({ ...cost });
  if (!_validCost(own)) throw new RangeError(`bad scrypt cost ${JSON.stringify(cost)}: N a power of two up to 2^20, r and p 1 to ${MAX_RP}, 128 × N × r at most 1 GiB`);
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hashPassword(randomBytes(16).toString("hex"), own));
  return {
    cost: own,
    hash: (password) => hashPassword(password, own),
    async verify(password, stored) {
      const parsed = _parse(stored);
      if (!parsed) {
        await verifyPassword(password, await dummyHash());
        return false;
      }
      return _verifyParsed(password, parsed);
    },
    async verifyDummy(password) {
      await verifyPassword(password, await dummyHash());
      return false;
    },
    needsRehash(stored) {
      const parsed = _parse(stored);
      if (!parsed) return false;
      const { N, r, p } = parsed.cost;
      return N !== own.N || r !== own.r || p !== own.p || parsed.salt.length !== SALT_BYTES || parsed.hash.length !== KEY_BYTES;
    },
  };
}

/**
 * The process-wide hasher at `DEFAULT_SCRYPT_COST` (one dummy hash for all its callers).
 *
 * @example
 * await defaultPasswordHasher().hash("correct horse");
 */
export function defaultPasswordHasher(): PasswordHasher {
  _default ??= createPasswordHasher();
  return _default;
}

/**
 * Hashes a password with a fresh random salt at `cost` (default `DEFAULT_SCRYPT_COST`).
 *
 * @example
 * const stored = await hashPassword("correct horse"); // "scrypt$131072$8$1$<salt hex>$<hash hex>"
 */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await _scrypt(password, salt, KEY_BYTES, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("hex"), hash.toString("hex")].join("$");
}

/**
 * True when `password` matches `stored` (a `hashPassword` result, at any cost). Compares in
 * constant time; a malformed stored string never matches.
 *
 * @example
 * await verifyPassword("correct horse", stored) // true
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = _parse(stored);
  return parsed ? _verifyParsed(password, parsed) : false;
}

// --- internal ---

let _default: PasswordHasher | undefined;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Refuse stored parameters beyond these, so a corrupted row cannot make one login eat the machine. */
const MAX_N = 1 << 20;
const MAX_RP = 16;
/** At most 1 GiB of scrypt memory (128 × N × r bytes) per hash. */
const MAX_MEMORY = 2 ** 30;

interface _Parsed {
  cost: ScryptCost;
  salt: Buffer;
  hash: Buffer;
}

async function _verifyParsed(password: string, parsed: _Parsed): Promise<boolean> {
  const actual = await _scrypt(password, parsed.salt, parsed.hash.length, parsed.cost);
  return timingSafeEqual(actual, parsed.hash);
}

function _validCost({ N, r, p }: ScryptCost): boolean {
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  const inRange = [r, p].every((v) => Number.isInteger(v) && v >= 1 && v <= MAX_RP);
  return powerOfTwo && N <= MAX_N && inRange && 128 * N * r <= MAX_MEMORY;
}

function _parse(stored: string): _Parsed | undefined {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const hex = /^(?:[0-9a-f]{2})+$/;
  if (!hex.test(parts[4]!) || !hex.test(parts[5]!)) return undefined;
  if (!_validCost({ N, r, p })) return undefined;
  return { cost: { N, r, p }, salt: Buffer.from(parts[4]!, "hex"), hash: Buffer.from(parts[5]!, "hex") };
}

function _scrypt(password: string, salt: Buffer, keylen: number, cost: ScryptCost): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; give it that plus headroom instead of the 32 MiB default.
  const maxmem = 128 * cost.N * cost.r * 2;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, keylen, { N: cost.N, r: cost.r, p: cost.p, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}
