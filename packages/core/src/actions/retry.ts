/**
 * @module actions/retry
 * When a failed webhook delivery is tried again. The delay doubles from
 * `firstRetryDelayMs`, is capped per attempt, spread by jitter from an injected random
 * source, and stretched to a receiver's `Retry-After` when that is longer; retries stop
 * once `retryWindowHours` have passed since the first attempt (the spec's "approximately
 * 7 days"), with one last attempt at the end of the window. Only 200 and 201 count as
 * delivered.
 */

/** How retries are spaced. */
export interface RetryPolicy {
  /** Delay after the first failed attempt (contract `webhooks.firstRetryDelayMs`). */
  firstRetryDelayMs: number;
  /** Retries stop this long after the first attempt (contract `webhooks.retryWindowHours`). */
  retryWindowHours: number;
  /** No single delay is longer than this, before a `Retry-After` stretches it. */
  maxDelayMs: number;
  /**
   * - `equal` (default): between half and all of the doubled delay, so a receiver that is
   *   down is never hammered, while retries of many deliveries spread out;
   * - `full`: anywhere between 0 and the doubled delay;
   * - `none`: exactly the doubled delay.
   */
  jitter: "equal" | "full" | "none";
}

/** Defaults: 1 minute doubling to at most 12 hours, for 168 hours (7 days). */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  firstRetryDelayMs: 60_000,
  retryWindowHours: 168,
  maxDelayMs: 12 * 3_600_000,
  jitter: "equal",
});

/** A number in [0, 1), e.g. `Math.random`; inject a fixed one in tests. */
export type RandomSource = () => number;

/**
 * The time of the next attempt after `attempt` attempts have failed (the first attempt is
 * 1), or null to give up because the retry window is over. `retryAfter` is the failed
 * response's `Retry-After` header (seconds or an HTTP date), honoured when it asks for a
 * longer wait; a wait past the end of the window gives up.
 *
 * @example
 * nextAttemptAt(first, 1, now, () => 0.5) // now + 45 s (equal jitter on 60 s)
 * nextAttemptAt(first, 3, now, () => 0.5, "600") // now + 600 s: the receiver asked for longer than 4 min
 */
export function nextAttemptAt(
  firstAttemptAt: Date,
  attempt: number,
  now: Date,
  random: RandomSource,
  retryAfter?: string | number | null,
  policy: Partial<RetryPolicy> = {},
): Date | null {
  const p = { ...DEFAULT_RETRY_POLICY, ...policy };
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer >= 1, got ${attempt}`);
  const deadline = retryDeadline(firstAttemptAt, p).getTime();
  const t = now.getTime();
  if (t >= deadline) return null;
  const next = t + _jittered(retryDelayMs(attempt, p), p.jitter, random);
  const asked = retryAfter === undefined || retryAfter === null ? undefined : parseRetryAfter(retryAfter, now);
  if (asked && asked.getTime() > next) {
    return asked.getTime() > deadline ? null : asked;
  }
  return new Date(Math.min(next, deadline));
}

/**
 * The delay before the next attempt after `attempt` failures, before jitter:
 * `firstRetryDelayMs × 2^(attempt−1)`, capped at `maxDelayMs`.
 *
 * @example
 * retryDelayMs(3) // 240000 (4 minutes)
 */
export function retryDelayMs(attempt: number, policy: Partial<RetryPolicy> = {}): number {
  const p = { ...DEFAULT_RETRY_POLICY, ...policy };
  const doublings = Math.min(Math.max(attempt - 1, 0), 52);
  return Math.min(p.maxDelayMs, p.firstRetryDelayMs * 2 ** doublings);
}

/** The end of the retry window: `firstAttemptAt` plus `retryWindowHours`. */
export function retryDeadline(firstAttemptAt: Date, policy: Partial<RetryPolicy> = {}): Date {
  const hours = policy.retryWindowHours ?? DEFAULT_RETRY_POLICY.retryWindowHours;
  return new Date(firstAttemptAt.getTime() + hours * 3_600_000);
}

/**
 * The instant a `Retry-After` value names: delay seconds (`"120"`, or a number) from
 * `now`, or an HTTP date. Undefined when it is neither.
 */
export function parseRetryAfter(value: string | number, now: Date): Date | undefined {
  if (typeof value === "number" || /^\s*\d+\s*$/.test(value)) {
    const seconds = Number(value);
    return Number.isFinite(seconds) && seconds >= 0 ? new Date(now.getTime() + seconds * 1000) : undefined;
  }
  // An HTTP date always names its weekday or month in letters; this keeps bare numbers and junk out.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at);
}

/** True only for 200 and 201: the spec retries every other answer. */
export function isDeliverySuccess(status: number): boolean {
  return status === 200 || status === 201;
}

// --- internal ---

function _jittered(delay: number, jitter: RetryPolicy["jitter"], random: RandomSource): number {
  const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
  const ms = jitter === "none" ? delay : jitter === "full" ? r * delay : delay / 2 + (r * delay) / 2;
  // Always strictly later than now, so the schedule moves forward.
  return Math.max(1, Math.round(ms));
}
