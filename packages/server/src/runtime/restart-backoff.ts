/**
 * @module runtime/restart-backoff
 * How long to wait before starting a crashed HTTP process again. A process that had run
 * for a while (`steadyMs`, 10 s) is replaced at once: one crash is an accident. Each crash
 * of a replacement that died sooner doubles the wait, from `firstMs` (250 ms) up to `maxMs`
 * (30 s), so a process that cannot start (a bad deploy, a database gone) is retried
 * steadily without spinning a core; a replacement that runs `steadyMs` resets it.
 * Per process slot; pure (the caller passes each process's uptime). The defaults are
 * config/schema's `TUNING_DEFAULTS.restarts`.
 */
import { TUNING_DEFAULTS } from "../config/schema.js";

/** Options of `createRestartBackoff`. */
export interface RestartBackoffOptions {
  steadyMs?: number;
  firstMs?: number;
  maxMs?: number;
}

/** The wait per slot. */
export interface RestartBackoff {
  /** The wait before slot `slot`'s next process, given how long the one that ended ran. */
  next(slot: number, uptimeMs: number): number;
}

/**
 * A fresh back-off (no crashes yet).
 *
 * @example
 * const backoff = createRestartBackoff();
 * backoff.next(0, 60_000) // 0: it had run a minute
 * backoff.next(0, 200)    // 250, then 500, 1000, ... up to 30 s while it keeps dying at start
 */
export function createRestartBackoff(opts: RestartBackoffOptions = {}): RestartBackoff {
  const steadyMs = opts.steadyMs ?? TUNING_DEFAULTS.restarts.steadyMs;
  const firstMs = opts.firstMs ?? TUNING_DEFAULTS.restarts.firstMs;
  const maxMs = opts.maxMs ?? TUNING_DEFAULTS.restarts.maxMs;
  const quickCrashes = new Map<number, number>();
  return {
    next(slot, uptimeMs) {
      if (uptimeMs >= steadyMs) {
        quickCrashes.delete(slot);
        return 0;
      }
      const n = quickCrashes.get(slot) ?? 0;
      quickCrashes.set(slot, n + 1);
      return Math.min(maxMs, firstMs * 2 ** n);
    },
  };
}
