/**
 * @module limit-rows
 * The decisions both adapters' `limits` table makes the same way (`Storage.updateLimit`,
 * `Storage.listLimits`): when this process purges expired rows and how many at once, what
 * a caller's change does to the row and what the call answers, and a listing's size.
 */
import type { LimitChange } from "@records-service/core";

/** Expired rows deleted per purge at most, so one call never does unbounded work. */
export const LIMIT_PURGE_BATCH = 500;

/** How often (in the caller's time) a process purges expired rows at most. */
export const LIMIT_PURGE_EVERY_MS = 60_000;

/** Default size of a listing. */
export const LIMIT_LIST_DEFAULT = 100;

/** When this process purges: due at most once a minute, again at once after a full batch. */
export interface LimitPurgeClock {
  /** Whether a purge is due at `now`. */
  due(now: number): boolean;
  /** Notes a purge at `now` that removed `removed` rows. */
  done(now: number, removed: number): void;
}

/**
 * A purge clock starting due. A clock that moved back makes a purge due too.
 *
 * @example
 * const clock = createLimitPurgeClock();
 * if (clock.due(now)) clock.done(now, purgeExpired(now, LIMIT_PURGE_BATCH));
 */
export function createLimitPurgeClock(): LimitPurgeClock {
  let purgedAt = -Infinity;
  return {
    due: (now) => now - purgedAt >= LIMIT_PURGE_EVERY_MS || now < purgedAt,
    // A full batch may have left more: the next call purges again.
    done: (now, removed) => {
      purgedAt = removed < LIMIT_PURGE_BATCH ? now : -Infinity;
    },
  };
}

/** What a limit update writes: nothing, the row removed, or the row set. */
export type LimitWrite = { kind: "keep" } | { kind: "delete" } | { kind: "set"; value: string; expiresAt: number };

/**
 * The write `change` (the caller's answer to `current`) makes at `now`, and the value the
 * update returns: the current value when kept, none when deleted, the new value while it
 * has not expired.
 *
 * @example
 * limitUpdate("1", { value: "2", expiresAt: now + 60_000 }, now) // { write: { kind: "set", … }, result: "2" }
 */
export function limitUpdate(current: string | undefined, change: LimitChange, now: number): { write: LimitWrite; result: string | undefined } {
  if (change === null) return { write: { kind: "delete" }, result: undefined };
  if (change === undefined) return { write: { kind: "keep" }, result: current };
  return { write: { kind: "set", value: change.value, expiresAt: change.expiresAt }, result: change.expiresAt > now ? change.value : undefined };
}

/** A listing's size: whole, not negative, `LIMIT_LIST_DEFAULT` when not given. */
export function limitListSize(limit: number = LIMIT_LIST_DEFAULT): number {
  return Math.max(0, Math.floor(limit));
}
