/**
 * @module protection/throttle
 * A per-key request limiter: at most `perMinute` requests in a fixed one-minute window
 * that opens with the key's first request (so the window resets a minute after that
 * request, not on the wall-clock minute). O(1) memory per active key; expired windows are
 * swept in creation order, and `maxKeys` caps the map. Time comes from the injected clock.
 */
import type { Clock } from "@records-service/core";

/** Options of `createThrottle`. */
export interface ThrottleOptions {
  /** Requests allowed per window and key; a positive integer. */
  perMinute: number;
  clock: Clock;
  /** Window length; one minute unless a test or operator says otherwise. */
  windowMs?: number;
  /** Most keys tracked at once; beyond it the oldest windows are forgotten. */
  maxKeys?: number;
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
  check(key: string): ThrottleResult;
  /** Keys currently tracked (for tests and metrics). */
  size(): number;
}

export const THROTTLE_DEFAULT_MAX_KEYS = 10_000;

/**
 * A limiter of `perMinute` requests per key.
 *
 * @example
 * const throttle = createThrottle({ perMinute: 60, clock: systemClock });
 * const r = throttle.check(apiKeyHash);
 * for (const [k, v] of Object.entries(rateLimitHeaders(r))) c.header(k, v);
 * if (!r.allowed) return c.json(body, 429);
 */
export function createThrottle(options: ThrottleOptions): Throttle {
  const { perMinute: limit, clock } = options;
  const windowMs = options.windowMs ?? 60_000;
  const maxKeys = options.maxKeys ?? THROTTLE_DEFAULT_MAX_KEYS;
  _positiveInteger("perMinute", limit);
  _positiveInteger("windowMs", windowMs);
  _positiveInteger("maxKeys", maxKeys);
  // Insertion order is window-start order: a new window is deleted and re-set at the end.
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = -Infinity;

  const sweep = (now: number) => {
    lastSweep = now;
    for (const [key, w] of windows) {
      if (w.start + windowMs > now) break;
      windows.delete(key);
    }
  };

  return {
    check(key) {
      const now = clock.now().getTime();
      if (now - lastSweep >= windowMs) sweep(now);
      let w = windows.get(key);
      if (!w || now >= w.start + windowMs) {
        w = { start: now, count: 0 };
        windows.delete(key);
        windows.set(key, w);
        for (const oldest of windows.keys()) {
          if (windows.size <= maxKeys) break;
          windows.delete(oldest);
        }
      }
      const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
      if (w.count < limit) {
        w.count += 1;
        return { allowed: true, limit, remaining: limit - w.count, resetSeconds };
      }
      return { allowed: false, limit, remaining: 0, resetSeconds, retryAfterSeconds: resetSeconds };
    },
    size: () => windows.size,
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

function _positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
