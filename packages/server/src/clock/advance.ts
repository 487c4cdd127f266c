/**
 * @module clock/advance
 * Moving the manual clock forward as if the time had passed live: the clock stops at every
 * 00:00 UTC in between (the scheduler's date-relative events fall due by the day) and at
 * every time a pending retry falls due, in time order; at each stop the scheduler runs (its
 * events and purges) and then the outbox runs everything due. The answer counts the data
 * events that fired, by name.
 */
import type { ManualClock } from "./manual-clock.js";

/** The longest move one advance may make: ten years (each day is a scheduler run). */
export const MAX_ADVANCE_DAYS = 3660;

const DAY_MS = 86_400_000;

/** What an advance drives. */
export interface AdvanceDeps {
  clock: ManualClock;
  /** One scheduler run at the clock's time; resolves with the data events it emitted, by name. */
  runScheduler(now: Date): Promise<Record<string, number>>;
  /** Runs every outbox job due at the clock's time; resolves when none is running. */
  settleOutbox(): Promise<void>;
  /** When the earliest pending outbox job falls due, if any. */
  nextJobDue(): Promise<Date | undefined>;
}

/** What an advance did. */
export interface AdvanceReport {
  now: Date;
  /** Data events emitted on the way, by name. */
  fired: Record<string, number>;
}

/** Advances, one at a time (a second request waits for the first). */
export interface ClockAdvancer {
  advance(to: Date): Promise<AdvanceReport>;
}

/**
 * The stop after `now` on the way to `target`: the next 00:00 UTC, a retry falling due
 * earlier, or the target itself, whichever comes first.
 *
 * @example
 * nextStop(new Date("2026-01-01T10:00Z"), new Date("2026-01-03T00:00Z"), undefined) // 2026-01-02T00:00Z
 */
export function nextStop(now: Date, target: Date, jobDue: Date | undefined): Date {
  const midnight = (Math.floor(now.getTime() / DAY_MS) + 1) * DAY_MS;
  let stop = Math.min(midnight, target.getTime());
  if (jobDue && jobDue.getTime() > now.getTime()) stop = Math.min(stop, jobDue.getTime());
  return new Date(stop);
}

/**
 * The advancer over `deps`. `advance(to)` throws `RangeError` unless `to` is after the clock.
 *
 * @example
 * const { advance } = createClockAdvancer(deps);
 * await advance(new Date(clock.now().getTime() + 14 * 86_400_000)) // { now, fired: { expiring_2wk: 1 } }
 */
export function createClockAdvancer(deps: AdvanceDeps): ClockAdvancer {
  let queue: Promise<unknown> = Promise.resolve();
  const run = async (to: Date): Promise<AdvanceReport> => {
    if (!(to.getTime() > deps.clock.now().getTime())) {
      throw new RangeError(`the clock only moves forward: ${to.toISOString()} is not after ${deps.clock.now().toISOString()}`);
    }
    const fired: Record<string, number> = {};
    const count = (names: Record<string, number>) => {
      for (const [name, n] of Object.entries(names)) fired[name] = (fired[name] ?? 0) + n;
    };
    // Anything already due at the start (a retry, a day the scheduler has not yet seen) runs first.
    count(await deps.runScheduler(deps.clock.now()));
    await deps.settleOutbox();
    while (deps.clock.now().getTime() < to.getTime()) {
      const stop = nextStop(deps.clock.now(), to, await deps.nextJobDue());
      deps.clock.set(stop);
      count(await deps.runScheduler(stop));
      await deps.settleOutbox();
    }
    return { now: deps.clock.now(), fired };
  };
  return {
    advance(to) {
      const result = queue.then(() => run(to));
      queue = result.catch(() => {});
      return result;
    },
  };
}
