/**
 * @module workers/scheduler
 * The scheduler worker: a croner job on `scheduler.cron` (seconds allowed, read in UTC like
 * every time of the service) that calls `runSchedulerOnce` with the clock's time. Runs
 * never overlap (`protect`): a run still busy when the next tick comes makes that tick a
 * no-op, and the next run's window simply starts where the busy one ended. `stop` waits
 * for a run in progress, so the database is never closed under it.
 *
 * Several processes on one database each run this worker; a run holds the `scheduler`
 * lease (`withLease`, for `workers.leaseMs`, renewed while it runs), so one process at a
 * time computes the date-relative events and the others' ticks at that moment do nothing.
 * Should two runs still overlap (a process stalled past its lease), the one data event per
 * dedupe key and flock that the database keeps means nothing is emitted twice.
 */
import { withLease } from "@records-service/core";
import { Cron } from "croner";
import { leaseOwnerGone, processLeaseOwner, type Worker, type WorkerContext, type WorkerFactory } from "../runtime/workers.js";
import { runSchedulerOnce, type SchedulerRunReport } from "./scheduler-run.js";

/** The lease a scheduler run holds (`records-service jobs` lists it while held). */
const SCHEDULER_LEASE = "scheduler";

/** Options of `createSchedulerWorker` (tests replace the run). */
export interface SchedulerWorkerOptions {
  /** What a tick does; default `runSchedulerOnce` over the worker context. */
  run?: (now: Date) => Promise<unknown>;
}

/**
 * The scheduler as a worker for `startServer`.
 *
 * @example
 * await startServer({ db: ":memory:", host: "127.0.0.1", port: 0, workers: [schedulerWorker] });
 */
export const schedulerWorker: WorkerFactory = (ctx) => createSchedulerWorker(ctx);

/** Builds the scheduler worker; `start` schedules it, `stop` ends it after a run in progress. */
export function createSchedulerWorker(ctx: WorkerContext, options: SchedulerWorkerOptions = {}): Worker {
  const run =
    options.run ??
    (async (now: Date) => {
      // The engine's triggers: the config file's and those given through the library API.
      const flocks = await ctx.storage.listFlocks();
      const triggers = flocks.flatMap((f) => ctx.engine.context.triggers(f.identifier));
      return runSchedulerOnce(
        { storage: ctx.storage, engine: ctx.engine, triggers, changesRetentionDays: ctx.settings.changes.retentionDays },
        now,
      );
    });
  let job: Cron | undefined;
  let running: Promise<void> | undefined;
  const tick = async () => {
    running = (async () => {
      try {
        const held = await withLease(ctx.storage, SCHEDULER_LEASE, { ttlMs: ctx.settings.workers.leaseMs, clock: ctx.clock, owner: processLeaseOwner(), isGone: leaseOwnerGone }, () => run(ctx.clock.now()));
        // Not acquired: another process is running the scheduler right now.
        if (held.acquired) _describe(held.value, ctx.out);
      } catch (e) {
        ctx.out(`scheduler: run failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    })();
    await running;
  };
  return {
    name: "scheduler",
    start() {
      job = new Cron(ctx.settings.scheduler.cron, { protect: true, timezone: "UTC" }, tick);
    },
    async stop() {
      job?.stop();
      await running;
    },
  };
}

// --- internal ---

/** One operator line per run that did something. */
function _describe(report: unknown, out: (line: string) => void): void {
  const r = report as Partial<SchedulerRunReport> | undefined;
  if (!r?.flocks) return;
  const emitted = r.flocks.reduce((n, f) => n + f.emitted, 0);
  if (emitted > 0 || (r.purged ?? 0) > 0) {
    out(`scheduler: ${emitted} date-relative event(s) emitted, ${r.purged ?? 0} expired data event(s) purged`);
  }
}
