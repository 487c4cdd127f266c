/**
 * @module clock/manual-clock
 * The emulator's clock: it stands still and moves only when told (`serve --clock manual`,
 * config `clock`). Everything that reads time (record timestamps, data events, the
 * scheduler, throttle windows, key and session expiry) reads the one clock the engine and
 * the app are given, so moving this one moves them all.
 */
import { parseTimestamp, systemClock, type Clock } from "@records-service/core";

/** A clock that moves only through `set`, and only forward. */
export interface ManualClock extends Clock {
  readonly kind: "manual";
  /** Moves the clock to `to`; throws if `to` is not after the current time. */
  set(to: Date): void;
}

/** The `clock` setting as parsed: the system clock, or a manual one starting at `start`. */
export type ClockSetting = { kind: "system" } | { kind: "manual"; start: Date | undefined };

/** What the setting accepts, for messages. */
export const CLOCK_SETTING_FORMAT = 'system, manual or manual=YYYY-MM-DDTHH:MM:SSZ';

/**
 * A manual clock at `start` (milliseconds kept, as the record timestamps show them).
 *
 * @example
 * const clock = createManualClock(new Date("2026-01-01T00:00:00Z"));
 * clock.set(new Date("2026-01-15T00:00:00Z")); clock.now() // 2026-01-15
 */
export function createManualClock(start: Date): ManualClock {
  let t = start.getTime();
  return {
    kind: "manual",
    now: () => new Date(t),
    set(to) {
      if (!(to.getTime() > t)) throw new RangeError(`the manual clock only moves forward (now ${new Date(t).toISOString()})`);
      t = to.getTime();
    },
  };
}

/**
 * Parses `system`, `manual` or `manual=<UTC timestamp>` (as `--clock` and the config's
 * `clock` take it). Returns an error message for anything else.
 *
 * @example
 * parseClockSetting("manual=2026-01-01T00:00:00Z") // { kind: "manual", start: 2026-01-01T00:00:00.000Z }
 */
export function parseClockSetting(text: string): ClockSetting | { error: string } {
  if (text === "system") return { kind: "system" };
  if (text === "manual") return { kind: "manual", start: undefined };
  const m = /^manual=(.+)$/.exec(text);
  const start = m ? parseTimestamp(m[1]!) : undefined;
  if (!start) return { error: `must be ${CLOCK_SETTING_FORMAT}, not ${JSON.stringify(text.slice(0, 60))}` };
  return { kind: "manual", start };
}

/** The clock a setting makes: the system clock, or a manual clock (at the system time when no start is given). */
export function clockFromSetting(setting: ClockSetting): Clock | ManualClock {
  return setting.kind === "system" ? systemClock : createManualClock(setting.start ?? systemClock.now());
}

/** True for a manual clock. */
export function isManualClock(clock: Clock): clock is ManualClock {
  return (clock as Partial<ManualClock>).kind === "manual";
}
