/**
 * @module protection/login-guard
 * Slows password guessing without handing an attacker a way to lock a user out. Failed
 * logins are counted per (username, client address) pair, an IPv6 address counting as its
 * /64 network (one host holds a whole /64). Five failures within the window lock that
 * pair: 1 minute, doubling with each further lockout, capped at 15 minutes, expiring by
 * itself. While locked, `check` refuses even the right password, so a lockout reveals
 * nothing. Failures across addresses are also counted per username, but that limit only
 * slows guessing down: a short fixed pause (30 s), never growing, and never applied to an
 * address the user logged in from within the last 30 days. A pair that has been locked in
 * the window adds nothing more to the username's count, so one attacking address cannot
 * slow down anyone else; many addresses can only slow down new addresses, briefly. A
 * lockout reports `multipleFailed` once, for the `multiple_failed_login` event.
 */
import type { Clock } from "@records-service/core";

/** Options of `createLoginGuard`; every limit has a default. */
export interface LoginGuardOptions {
  clock: Clock;
  /** Failures of one pair within `windowMs` that lock it. Default 5. */
  maxFailures?: number;
  /** Failures of one username, any address, within `windowMs` that pause it. Default 20. */
  maxFailuresPerUser?: number;
  /** The username-wide pause: fixed, never growing. Default 30 seconds. */
  userLockMs?: number;
  /** How long a successful login keeps its address exempt from the username-wide pause. Default 30 days. */
  knownAddressMs?: number;
  /** Known addresses remembered per username; the least recent go first. Default 10. */
  maxKnownAddresses?: number;
  /** How far back failures count. Default 15 minutes. */
  windowMs?: number;
  /** The first lockout. Default 1 minute; each further one doubles it. */
  baseLockMs?: number;
  /** The longest lockout. Default 15 minutes. */
  maxLockMs?: number;
  /** Most pairs and usernames tracked at once; the least recently seen go first. Default 50,000. */
  maxEntries?: number;
}

export type LoginCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface LoginFailure {
  /** True exactly once per lockout: emit `multiple_failed_login`. */
  multipleFailed: boolean;
  /** Set when this failure started (or met) a lockout: seconds until it ends. */
  lockedForSeconds?: number;
}

export interface LoginGuard {
  /** Before checking the password: may this username (from this address) try now? */
  check(username: string, address?: string): LoginCheck;
  /** After a wrong password. */
  fail(username: string, address?: string): LoginFailure;
  /** After a right password: forgets the failures and lockout history of the pair and username, and remembers the address as known-good. */
  succeed(username: string, address?: string): void;
  /** Failure entries tracked (for tests and metrics). */
  size(): number;
}

export const LOGIN_GUARD_DEFAULTS = {
  maxFailures: 5,
  maxFailuresPerUser: 20,
  userLockMs: 30_000,
  knownAddressMs: 30 * 24 * 60 * 60_000,
  maxKnownAddresses: 10,
  windowMs: 15 * 60_000,
  baseLockMs: 60_000,
  maxLockMs: 15 * 60_000,
  maxEntries: 50_000,
} as const;

/**
 * The guard of the login endpoints.
 *
 * @example
 * const guard = createLoginGuard({ clock });
 * const gate = guard.check(username, address);
 * if (!gate.allowed) return tooManyAttempts(gate.retryAfterSeconds);
 * if (!passwordOk) { if (guard.fail(username, address).multipleFailed) emit("multiple_failed_login"); return forbidden(); }
 * guard.succeed(username, address);
 */
export function createLoginGuard(options: LoginGuardOptions): LoginGuard {
  const o = { ...LOGIN_GUARD_DEFAULTS, ...options };
  for (const name of ["maxFailures", "maxFailuresPerUser", "userLockMs", "knownAddressMs", "maxKnownAddresses", "windowMs", "baseLockMs", "maxLockMs", "maxEntries"] as const) {
    _positiveInteger(name, o[name]);
  }
  // Map order is least-recently-touched first: every touch re-inserts the entry.
  const entries = new Map<string, _Entry>();
  // Per username: address group → time of the last successful login from it.
  const known = new Map<string, Map<string, number>>();
  let lastSweep = -Infinity;
  const now = () => o.clock.now().getTime();

  const touch = (key: string, t: number): _Entry => {
    const found = entries.get(key);
    const entry = found && !_forgettable(found, t, o.windowMs) ? found : { failures: [], lockedUntil: 0, lockouts: 0, lastSeen: t };
    entries.delete(key);
    entry.lastSeen = t;
    entries.set(key, entry);
    for (const oldest of entries.keys()) {
      if (entries.size <= o.maxEntries) break;
      entries.delete(oldest);
    }
    return entry;
  };

  const sweep = (t: number) => {
    if (t - lastSweep < o.windowMs) return;
    lastSweep = t;
    for (const [key, entry] of entries) if (_forgettable(entry, t, o.windowMs)) entries.delete(key);
  };

  const isKnown = (username: string, group: string, t: number): boolean => {
    const at = known.get(_userKey(username))?.get(group);
    return at !== undefined && t - at < o.knownAddressMs;
  };

  /** Records a failure on one entry; returns the lock length when it locks now. */
  const failOn = (key: string, threshold: number, t: number, fixedLockMs?: number): number | undefined => {
    const entry = touch(key, t);
    entry.failures = entry.failures.filter((at) => at > t - o.windowMs);
    entry.failures.push(t);
    if (entry.failures.length < threshold) return undefined;
    const lockMs = fixedLockMs ?? Math.min(o.baseLockMs * 2 ** entry.lockouts, o.maxLockMs);
    entry.lockouts += 1;
    entry.lockedUntil = t + lockMs;
    entry.failures = [];
    return lockMs;
  };

  const check = (username: string, group: string, t: number): LoginCheck => {
    const until = Math.max(
      entries.get(_pairKey(username, group))?.lockedUntil ?? 0,
      isKnown(username, group, t) ? 0 : (entries.get(_userKey(username))?.lockedUntil ?? 0),
    );
    return until > t ? { allowed: false, retryAfterSeconds: Math.ceil((until - t) / 1000) } : { allowed: true };
  };

  const remember = (username: string, group: string, t: number) => {
    const key = _userKey(username);
    const groups = known.get(key) ?? new Map<string, number>();
    known.delete(key);
    known.set(key, groups);
    groups.delete(group);
    groups.set(group, t);
    for (const oldest of groups.keys()) {
      if (groups.size <= o.maxKnownAddresses) break;
      groups.delete(oldest);
    }
    for (const oldest of known.keys()) {
      if (known.size <= o.maxEntries) break;
      known.delete(oldest);
    }
  };

  return {
    check(username, address = "") {
      const t = now();
      sweep(t);
      return check(username, addressGroup(address), t);
    },
    fail(username, address = "") {
      const t = now();
      sweep(t);
      // A failure while locked should not happen (check refused before the password was
      // tried); if it does, it neither counts nor extends the lock.
      const group = addressGroup(address);
      const gate = check(username, group, t);
      if (!gate.allowed) return { multipleFailed: false, lockedForSeconds: gate.retryAfterSeconds };
      const pair = entries.get(_pairKey(username, group));
      // A pair already locked in this window has had its say: it adds nothing to the username's count.
      const pairLockedBefore = pair !== undefined && !_forgettable(pair, t, o.windowMs) && pair.lockouts > 0;
      const pairLock = failOn(_pairKey(username, group), o.maxFailures, t) ?? 0;
      const userLock = pairLockedBefore ? 0 : (failOn(_userKey(username), o.maxFailuresPerUser, t, o.userLockMs) ?? 0);
      const lockMs = Math.max(pairLock, userLock);
      return lockMs > 0 ? { multipleFailed: true, lockedForSeconds: Math.ceil(lockMs / 1000) } : { multipleFailed: false };
    },
    succeed(username, address = "") {
      const group = addressGroup(address);
      entries.delete(_pairKey(username, group));
      entries.delete(_userKey(username));
      remember(username, group, now());
    },
    size: () => entries.size,
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

interface _Entry {
  /** Times of failures inside the window (at most the threshold). */
  failures: number[];
  lockedUntil: number;
  /** Lockouts so far: the next lasts base × 2^lockouts, up to the cap. */
  lockouts: number;
  lastSeen: number;
}

/**
 * An entry can be dropped once it is unlocked and quiet for a whole window after its last
 * failure or lock: then it has no failures that count, and its lockout growth starts over.
 */
function _forgettable(entry: _Entry, t: number, windowMs: number): boolean {
  return entry.lockedUntil <= t && Math.max(entry.lastSeen, entry.lockedUntil) + windowMs <= t;
}

/** Usernames are emails: compare them trimmed and case-folded. */
function _userKey(username: string): string {
  return `u\u0000${username.trim().toLowerCase()}`;
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

function _pairKey(username: string, address: string): string {
  return `p\u0000${username.trim().toLowerCase()}\u0000${address}`;
}

function _positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
