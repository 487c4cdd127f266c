/**
 * @module clock/driver
 * The manual clock's worker: with `--clock manual` it takes the place of the scheduler and
 * outbox workers. The outbox still delivers as soon as jobs are queued (writes emit events as
 * live); the scheduler runs at start (so its windows begin at the clock's time) and at each
 * stop of an advance, never on wall-clock ticks, since the service's time does not pass.
 */
import { parseTimestamp } from "@records-service/core";
import type { Worker, WorkerContext } from "../runtime/workers.js";
import { createSettlingOutboxWorker } from "../workers/outbox.js";
import { runSchedulerOnce } from "../workers/scheduler-run.js";
import { createClockAdvancer, type ClockAdvancer } from "./advance.js";
import type { ManualClock } from "./manual-clock.js";

/** Pending jobs looked at for the next retry; an emulator has few. */
const PENDING_SCAN = 1000;

/** The driver: a worker to start with the others, and the advancer the clock routes call. */
export interface ManualClockDriver {
  worker: Worker;
  advancer: ClockAdvancer;
}

/**
 * Builds the driver over a worker context whose clock is `clock`.
 *
 * @example
 * const driver = createManualClockDriver(ctx, clock); await driver.worker.start();
 * await driver.advancer.advance(new Date("2026-01-15T00:00:00Z"));
 */
export function createManualClockDriver(ctx: WorkerContext, clock: ManualClock): ManualClockDriver {
  const outbox = createSettlingOutboxWorker(ctx);
  const runScheduler = async (now: Date) => {
    const flocks = await ctx.storage.listFlocks();
    const triggers = flocks.flatMap((f) => ctx.engine.context.triggers(f.identifier));
    const report = await runSchedulerOnce({ storage: ctx.storage, engine: ctx.engine, triggers, changesRetentionDays: ctx.settings.changes.retentionDays }, now);
    const fired: Record<string, number> = {};
    for (const f of report.flocks) for (const [name, n] of Object.entries(f.fired)) fired[name] = (fired[name] ?? 0) + n;
    return fired;
  };
  const advancer = createClockAdvancer({
    clock,
    runScheduler,
    settleOutbox: () => outbox.settle(),
    async nextJobDue() {
      const pending = await ctx.storage.listJobs({ status: "pending", limit: PENDING_SCAN });
      const times = pending.map((j) => parseTimestamp(j.nextAttemptAt)?.getTime()).filter((t): t is number => t !== undefined);
      return times.length ? new Date(Math.min(...times)) : undefined;
    },
  });
  return {
    advancer,
    worker: {
      name: "manual-clock",
      async start() {
        await outbox.start();
        await runScheduler(clock.now());
      },
      stop: () => outbox.stop(),
    },
  };
}
