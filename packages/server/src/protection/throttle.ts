/**
 * @module protection/throttle
 * A per-key request limiter: at most `perMinute` requests in a fixed one-minute window
 * that opens with the key's first request (so the window resets a minute after that
 * request, not on the wall-clock minute). The windows live in the database
 * (`Storage.updateLimit`), so every process on it counts against the same window: N
 * processes do not make the limit N times larger. A row leaves by expiry at the end of its
 * window; keys are hashed, so no address or token hash is stored as sent. Time comes from
 * the injected clock.
 */
import { createHash } from "node:crypto";
import type { Clock, Storage } from "@records-service/core";

/** Options of `createThrottle`. */
export interface ThrottleOptions {
  /** Requests allowed per window and key; a positive integer. */
  perMinute: number;
  /** Where the windows live (shared by every process on the database). */
  storage: Storage;
  clock: Clock;
  /** Window length; one minute unless a test or operator says otherwise. */
  windowMs?: number;
}

/** The answer for one request. */
export interface ThrottleResult {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
  /** Set when refused: seconds to wait, for `Retry-After`. */
  retryAfterSeconds?: number;
}

export interface Throttle {
  /** Counts a request for `key` and says whether it may proceed. Refused requests are not counted. */
  check(key: string): Promise<ThrottleResult>;
}

/**
 * A limiter of `perMinute` requests per key.
 *
 * @example
 * const throttle = createThrottle({ perMinute: 60, storage, clock: systemClock });
 * const r = await throttle.check(apiKeyHash);
 * for (const [k, v] of Object.entries(rateLimitHeaders(r))) c.header(k, v);
 * if (!r.allowed) return c.json(body, 429);
 */
export function createThrottle(options: ThrottleOptions): Throttle {
  const { perMinute: limit, clock, storage } = options;
  const windowMs = options.windowMs ?? 60_000;
  _positiveInteger("perMinute", limit);
  _positiveInteger("windowMs", windowMs);

  return {
    async check(key) {
      const now = clock.now().getTime();
      let w: _Window = { start: now, count: 0 };
      let allowed = false;
      // One atomic read-modify-write: every process's requests meet in the same row.
      await storage.updateLimit(_key(key), now, (value) => {
        const stored = _parse(value);
        w = stored && now < stored.start + windowMs ? stored : { start: now, count: 0 };
        allowed = w.count < limit;
        if (!allowed) return undefined;
        w = { start: w.start, count: w.count + 1 };
        return { value: JSON.stringify(w), expiresAt: w.start + windowMs };
      });
      const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
      if (allowed) return { allowed: true, limit, remaining: limit - w.count, resetSeconds };
      return { allowed: false, limit, remaining: 0, resetSeconds, retryAfterSeconds: resetSeconds };
    },
  };
}

/**
 * The response headers of a throttled-class request: `x-rate-limit-limit`,
 * `x-rate-limit-remaining`, `x-rate-limit-reset` (seconds until the window resets), and
 * `Retry-After` (seconds) when refused.
 */
export function rateLimitHeaders(result: ThrottleResult): Record<string, string> {
  const headers: Record<string, string> = {
    "x-rate-limit-limit": String(result.limit),
    "x-rate-limit-remaining": String(result.remaining),
    "x-rate-limit-reset": String(result.resetSeconds),
  };
  if (!result.allowed) headers["Retry-After"] = String(result.retryAfterSeconds ?? result.resetSeconds);
  return headers;
}

/** The detail text of a 429 for an unattributed caller: the limit, the wait and the way out. */
export function throttledDetail(result: ThrottleResult): string {
  const wait = result.retryAfterSeconds ?? result.resetSeconds;
  return (
    `more than ${result.limit} requests per minute without an APPLICATION header; ` +
    `retry in ${wait} second${wait === 1 ? "" : "s"}, or send APPLICATION: <Organisation>/<Application>/<Version>`
  );
}

// --- internal ---

/** One key's window as stored: when it opened and the requests counted in it. */
interface _Window {
  start: number;
  count: number;
}

/** The limit-row key: a hash of the throttle key, short and printable whatever was sent. */
function _key(key: string): string {
  return `throttle:${createHash("sha256").update(key).digest("base64url")}`;
}

function _parse(value: string | undefined): _Window | undefined {
  if (value === undefined) return undefined;
  const w = JSON.parse(value) as Partial<_Window>;
  return Number.isFinite(w.start) && Number.isFinite(w.count) ? { start: w.start!, count: w.count! } : undefined;
}

function _positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
