/**
 * @module protection/login-guard
 * Slows password guessing without handing an attacker a way to lock a user out. Failed
 * logins are counted per (account, client address) pair, an IPv6 address counting as its
 * /64 network (one host holds a whole /64). Five failures within the window lock that
 * pair: 1 minute, doubling with each further lockout, capped at 15 minutes, expiring by
 * itself. While locked, `check` refuses even the right password, so a lockout reveals
 * nothing. Failures across addresses are also counted per account, but that limit only
 * slows guessing down: a short fixed pause (30 s), never growing, and never applied to an
 * address the account logged in from within the last 30 days. A pair that has been locked
 * in the window adds nothing more to the account's count, so one attacking address cannot
 * slow down anyone else; many addresses can only slow down new addresses, briefly.
 * Failures from one address across all accounts are counted too (30 in the window lock the
 * address like a pair, doubling), so one address cannot spray guesses over many accounts;
 * that lock also spares accounts that know the address. A lockout reports `multipleFailed`
 * once, for the `multiple_failed_login` event.
 *
 * The state lives in the database (`Storage.updateLimit`), not in this process: it cannot
 * be evicted by filling a table (rows leave by expiry only), survives a restart, and is
 * shared by every process on the database. Keys are hashes, so no typed username (often a
 * password typed in the wrong field) is stored in clear.
 */
import { createHash } from "node:crypto";
import type { Clock, Storage } from "@records-service/core";
import { TUNING_DEFAULTS } from "../config/schema.js";

/** Options of `createLoginGuard`; every limit has a default (config/schema `TUNING_DEFAULTS.loginGuard`, documented there). */
export interface LoginGuardOptions {
  /** Where the counters live (shared by every process on the database). */
  storage: Storage;
  clock: Clock;
  /** Failures of one pair within `windowMs` that lock it. Default 5. */
  maxFailures?: number;
  /** Failures of one account, any address, within `windowMs` that pause it. Default 20. */
  maxFailuresPerUser?: number;
  /** Failures from one address, any account, within `windowMs` that lock the address. Default 30. */
  maxFailuresPerAddress?: number;
  /** The account-wide pause: fixed, never growing. Default 30 seconds. */
  userLockMs?: number;
  /** How long a successful login keeps its address exempt from the account-wide and address-wide locks. Default 30 days. */
  knownAddressMs?: number;
  /** Known addresses remembered per account; the least recent go first. Default 10. */
  maxKnownAddresses?: number;
  /** How far back failures count. Default 15 minutes. */
  windowMs?: number;
  /** The first lockout of a pair or an address. Default 1 minute; each further one doubles it. */
  baseLockMs?: number;
  /** The longest lockout. Default 15 minutes. */
  maxLockMs?: number;
}

type LoginCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface LoginFailure {
  /** True exactly once per lockout of the pair or the account: emit `multiple_failed_login`. */
  multipleFailed: boolean;
  /** Set when this failure started (or met) a lockout: seconds until it ends. */
  lockedForSeconds?: number;
}

export interface LoginGuard {
  /** Before checking the password: may this account (from this address) try now? */
  check(account: string, address?: string): Promise<LoginCheck>;
  /** After a wrong password (or any refused attempt). */
  fail(account: string, address?: string): Promise<LoginFailure>;
  /** After a right password: forgets the failures and lockout history of the pair and account, and remembers the address as known-good and the time as the account's last login. */
  succeed(account: string, address?: string): Promise<void>;
  /** The account's last successful login (epoch ms), kept `LAST_LOGIN_KEEP_MS` after it; undefined when none. */
  lastLogin(account: string): Promise<number | undefined>;
}

/** How long an account's last successful login is remembered (`lastLogin`): about five years. */
const LAST_LOGIN_KEEP_MS = 5 * 366 * 24 * 60 * 60_000;

/**
 * The guard of the login endpoints, over the database's limit rows.
 *
 * @example
 * const guard = createLoginGuard({ storage, clock });
 * const gate = await guard.check(account, address);
 * if (!gate.allowed) return tooManyAttempts(gate.retryAfterSeconds);
 * if (!passwordOk) { if ((await guard.fail(account, address)).multipleFailed) emit("multiple_failed_login"); return forbidden(); }
 * await guard.succeed(account, address);
 */
export function createLoginGuard(options: LoginGuardOptions): LoginGuard {
  const { storage, clock, ...limits } = options;
  const o = { ...TUNING_DEFAULTS.loginGuard, ...limits };
  for (const name of Object.keys(TUNING_DEFAULTS.loginGuard) as (keyof typeof TUNING_DEFAULTS.loginGuard)[]) _positiveInteger(name, o[name]);
  const now = () => clock.now().getTime();

  const read = async (key: string, t: number): Promise<string | undefined> => storage.updateLimit(key, t, () => undefined);
  const entryAt = async (key: string, t: number) => _parseEntry(await read(key, t));

  const isKnown = async (account: string, group: string, t: number): Promise<boolean> => {
    const at = _parseKnown(await read(_key("known", account), t)).find(([g]) => g === group)?.[1];
    return at !== undefined && t - at < o.knownAddressMs;
  };

  const gate = async (account: string, group: string, t: number): Promise<LoginCheck> => {
    const pair = await entryAt(_key("pair", account, group), t);
    let until = pair?.until ?? 0;
    const user = await entryAt(_key("user", account), t);
    const address = await entryAt(_key("address", group), t);
    if (Math.max(user?.until ?? 0, address?.until ?? 0) > Math.max(t, until) && !(await isKnown(account, group, t))) {
      until = Math.max(until, user?.until ?? 0, address?.until ?? 0);
    }
    return until > t ? { allowed: false, retryAfterSeconds: Math.ceil((until - t) / 1000) } : { allowed: true };
  };

  /** Records a failure on one entry, atomically; the lock it started (ms, 0 for none) and whether it had locked before. */
  const failOn = async (key: string, threshold: number, t: number, fixedLockMs?: number) => {
    let lockMs = 0;
    let lockedBefore = false;
    await storage.updateLimit(key, t, (value) => {
      const e = _parseEntry(value) ?? { f: [], until: 0, n: 0, seen: t };
      lockedBefore = e.n > 0;
      e.f = e.f.filter((at) => at > t - o.windowMs);
      e.f.push(t);
      e.seen = t;
      if (e.f.length >= threshold) {
        lockMs = fixedLockMs ?? Math.min(o.baseLockMs * 2 ** e.n, o.maxLockMs);
        e.n += 1;
        e.until = t + lockMs;
        e.f = [];
      }
      // Forgettable (no counting failure, growth starts over) a whole window after the last event.
      return { value: JSON.stringify(e), expiresAt: Math.max(e.seen, e.until) + o.windowMs };
    });
    return { lockMs, lockedBefore };
  };

  return {
    async check(account, address = "") {
      return gate(account, addressGroup(address), now());
    },
    async fail(account, address = "") {
      const t = now();
      const group = addressGroup(address);
      // A failure while locked should not happen (check refused before the password was
      // tried); if it does, it neither counts nor extends the lock.
      const current = await gate(account, group, t);
      if (!current.allowed) return { multipleFailed: false, lockedForSeconds: current.retryAfterSeconds };
      const pair = await failOn(_key("pair", account, group), o.maxFailures, t);
      // A pair already locked in this window has had its say: it adds nothing to the account's count.
      const user = pair.lockedBefore ? undefined : await failOn(_key("user", account), o.maxFailuresPerUser, t, o.userLockMs);
      const address_ = await failOn(_key("address", group), o.maxFailuresPerAddress, t);
      const reported = Math.max(pair.lockMs, user?.lockMs ?? 0);
      const lockMs = Math.max(reported, address_.lockMs);
      if (lockMs === 0) return { multipleFailed: false };
      return { multipleFailed: reported > 0, lockedForSeconds: Math.ceil(lockMs / 1000) };
    },
    async succeed(account, address = "") {
      const t = now();
      const group = addressGroup(address);
      await storage.updateLimit(_key("pair", account, group), t, () => null);
      await storage.updateLimit(_key("user", account), t, () => null);
      // The address's own count stays: logging in to one's own account must not wipe the
      // failures one made against others.
      await storage.updateLimit(_key("known", account), t, (value) => {
        const known = _parseKnown(value).filter(([g, at]) => g !== group && t - at < o.knownAddressMs);
        known.push([group, t]);
        return { value: JSON.stringify(known.slice(-o.maxKnownAddresses)), expiresAt: t + o.knownAddressMs };
      });
      await storage.updateLimit(_key("last", account), t, () => ({ value: String(t), expiresAt: t + LAST_LOGIN_KEEP_MS }));
    },
    async lastLogin(account) {
      const value = await read(_key("last", account), now());
      const at = value === undefined ? NaN : Number(value);
      return Number.isFinite(at) ? at : undefined;
    },
  };
}

/**
 * The address as counted: an IPv6 address as its /64 network (`2001:db8:1:2::/64`), an
 * IPv4-mapped IPv6 address as its IPv4 address, anything else as given.
 *
 * @example
 * addressGroup("2001:db8:1:2:aaaa::1") // "2001:db8:1:2::/64"
 */
export function addressGroup(address: string): string {
  const a = address.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!a.includes(":")) return a;
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a) ?? /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1]!;
  const groups = _expandIpv6(a);
  return groups ? `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64` : a;
}

// --- internal ---

/** One counted thing (a pair, an account, an address), as stored. */
interface _Entry {
  /** Times of failures inside the window (fewer than the threshold). */
  f: number[];
  /** Locked until this time (epoch ms); 0 when never locked. */
  until: number;
  /** Lockouts so far: the next lasts base × 2^n, up to the cap. */
  n: number;
  /** The last failure. */
  seen: number;
}

/**
 * The limit-row key of a pair, an account, an address or an account's known addresses: a
 * hash of its parts (accounts are compared trimmed and case-folded), so keys are short,
 * printable and hold no username.
 */
function _key(kind: "pair" | "user" | "address" | "known" | "last", ...parts: string[]): string {
  const normalized = kind === "address" ? parts : [parts[0]!.trim().toLowerCase(), ...parts.slice(1)];
  // A very long input costs hashing time only up to a bound.
  const text = JSON.stringify(normalized.map((p) => p.slice(0, 1024)));
  return `login:${kind}:${createHash("sha256").update(text).digest("base64url")}`;
}

function _parseEntry(value: string | undefined): _Entry | undefined {
  if (value === undefined) return undefined;
  const e = JSON.parse(value) as Partial<_Entry>;
  return { f: Array.isArray(e.f) ? e.f : [], until: Number(e.until) || 0, n: Number(e.n) || 0, seen: Number(e.seen) || 0 };
}

/** Known addresses of an account: `[group, last login]`, least recent first. */
function _parseKnown(value: string | undefined): [string, number][] {
  if (value === undefined) return [];
  const known = JSON.parse(value) as unknown;
  return Array.isArray(known) ? (known as [string, number][]) : [];
}

/** The eight groups of an IPv6 address, or undefined when it is not one. */
function _expandIpv6(a: string): string[] | undefined {
  const halves = a.split("::");
  if (halves.length > 2) return undefined;
  const part = (h: string | undefined) => (h ? h.split(":") : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  // A trailing dotted IPv4 part stands for two groups.
  const last = (halves.length === 2 ? tail : head).at(-1);
  const v4 = last && last.includes(".") ? 1 : 0;
  const missing = 8 - head.length - tail.length - v4;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  const hex = v4 ? groups.slice(0, -1) : groups;
  return hex.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups : undefined;
}

function _positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
