/**
 * @module runtime/poll-loop
 * The loop every polling worker runs: one pass at a time, a kick while a pass runs asks
 * for one more pass right after it, and an idle timer starts the next pass `pollMs` after
 * the last one ends. Passes never overlap, so a worker needs no locking of its own.
 */

/** A worker's polling loop (see `createPollLoop`). */
export interface PollLoop {
  /** Runs a pass now, or right after the one in flight. */
  kick(): void;
  /** Stops scheduling passes; returns the pass in flight, if any, for the caller to await. */
  halt(): Promise<void> | undefined;
  /** Runs a pass now (or after the one in flight) and resolves once no pass is running. */
  settle(): Promise<void>;
}

/**
 * A loop calling `run` once per pass; a pass that throws is reported to `onError` and the
 * loop goes on.
 *
 * @example
 * const loop = createPollLoop({ pollMs: 1000, run: () => runner.runOnce(), onError: (e) => log(e) });
 * loop.kick(); // ... later: await loop.halt();
 */
export function createPollLoop(opts: { pollMs: number; run: () => Promise<unknown>; onError: (e: unknown) => void }): PollLoop {
  let stopped = false;
  let again = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (): void => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(kick, opts.pollMs);
    timer.unref();
  };
  const kick = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await opts.run();
        } catch (e) {
          opts.onError(e);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
      schedule();
    });
  };

  return {
    kick,
    halt() {
      stopped = true;
      clearTimeout(timer);
      return running;
    },
    async settle() {
      kick();
      // A kick during a pass makes the same `running` promise loop again, so this waits for it too.
      while (running) await running;
    },
  };
}
