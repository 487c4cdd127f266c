/**
 * @module protection/login-guard
 * Slows password guessing without handing an attacker a way to lock a user out for good.
 * Failed logins are counted per (username, client address) pair and, more loosely, per
 * username across all addresses. Reaching a threshold within the window locks that pair
 * (or username) for a while: 1 minute, doubling with each further lockout, capped at 15
 * minutes, expiring by itself. While locked, `check` refuses even the right password, so a
 * lockout reveals nothing. One attacker from one address locks only their own pair; only
 * many failures from many addresses lock the username itself, and never for more than the
 * cap. A lockout reports `multipleFailed` once, for the `multiple_failed_login` event.
 */
import type { Clock } from "@records-service/core";

/** Options of `createLoginGuard`; every limit has a default. */
export interface LoginGuardOptions {
  clock: Clock;
  /** Failures of one pair within `windowMs` that lock it. Default 5. */
  maxFailures?: number;
  /** Failures of one username, any address, within `windowMs` that lock it. Default 20. */
  maxFailuresPerUser?: number;
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
  /** After a right password: forgets the failures and lockout history of the pair and username. */
  succeed(username: string, address?: string): void;
  /** Entries tracked (for tests and metrics). */
  size(): number;
}

export const LOGIN_GUARD_DEFAULTS = {
  maxFailures: 5,
  maxFailuresPerUser: 20,
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
  for (const name of ["maxFailures", "maxFailuresPerUser", "windowMs", "baseLockMs", "maxLockMs", "maxEntries"] as const) {
    _positiveInteger(name, o[name]);
  }
  // Map order is least-recently-touched first: every touch re-inserts the entry.
  const entries = new Map<string, _Entry>();
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

  /** Records a failure on one entry; returns the lock length when it locks now. */
  const failOn = (key: string, threshold: number, t: number): number | undefined => {
    const entry = touch(key, t);
    entry.failures = entry.failures.filter((at) => at > t - o.windowMs);
    entry.failures.push(t);
    if (entry.failures.length < threshold) return undefined;
    const lockMs = Math.min(o.baseLockMs * 2 ** entry.lockouts, o.maxLockMs);
    entry.lockouts += 1;
    entry.lockedUntil = t + lockMs;
    entry.failures = [];
    return lockMs;
  };

  const check = (username: string, address: string, t: number): LoginCheck => {
    const until = Math.max(
      entries.get(_pairKey(username, address))?.lockedUntil ?? 0,
      entries.get(_userKey(username))?.lockedUntil ?? 0,
    );
    return until > t ? { allowed: false, retryAfterSeconds: Math.ceil((until - t) / 1000) } : { allowed: true };
  };

  return {
    check(username, address = "") {
      const t = now();
      sweep(t);
      return check(username, address, t);
    },
    fail(username, address = "") {
      const t = now();
      sweep(t);
      // A failure while locked should not happen (check refused before the password was
      // tried); if it does, it neither counts nor extends the lock.
      const gate = check(username, address, t);
      if (!gate.allowed) return { multipleFailed: false, lockedForSeconds: gate.retryAfterSeconds };
      const pairLock = failOn(_pairKey(username, address), o.maxFailures, t) ?? 0;
      const userLock = failOn(_userKey(username), o.maxFailuresPerUser, t) ?? 0;
      const lockMs = Math.max(pairLock, userLock);
      return lockMs > 0 ? { multipleFailed: true, lockedForSeconds: Math.ceil(lockMs / 1000) } : { multipleFailed: false };
    },
    succeed(username, address = "") {
      entries.delete(_pairKey(username, address));
      entries.delete(_userKey(username));
    },
    size: () => entries.size,
  };
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

function _pairKey(username: string, address: string): string {
  return `p\u0000${username.trim().toLowerCase()}\u0000${address}`;
}

function _positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
