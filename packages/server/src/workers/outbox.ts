/**
 * @module workers/outbox
 * The outbox worker: runs due jobs (webhooks, email) through their action handlers. It
 * runs every `pollMs`, and at once after a commit that queued jobs (the engine's nudge),
 * never overlapping itself. Each step claims its jobs for `workers.leaseMs` (renewed every
 * third of it while their attempts run), so every process on the database may run this
 * worker and a job is attempted by one of them at a time; a process killed mid-attempt
 * leaves a claim that lapses, and another process then retries the job with the same
 * delivery id. Stopping lets the attempts in flight finish for up to `stopGraceMs`, then
 * aborts them; an aborted attempt releases its job, still pending, so it is delivered
 * after the next start or by another process (at least once, with the same delivery id).
 */
import { DEFAULT_RETRY_POLICY, formatTimestamp, newLeaseOwner, systemAttribution, type ActionHandler, type OutboxJob, type RandomSource } from "@records-service/core";
import { createDefaultActionHandlers } from "../actions/defaults.js";
import { createActionRegistry } from "../actions/registry.js";
import { createPollLoop } from "../runtime/poll-loop.js";
import type { Worker, WorkerContext, WorkerFactory } from "../runtime/workers.js";
import { CONFIG_DEFAULTS, TUNING_DEFAULTS } from "../config/schema.js";
import { attemptJob, releasedUpdate, type AttemptDeps, type AttemptResult } from "./outbox-attempt.js";

/** Options of `createOutboxWorkerFactory`. */
export interface OutboxWorkerOptions {
  /** The handlers; default `createDefaultActionHandlers(ctx)`. */
  handlers?: (ctx: WorkerContext) => readonly ActionHandler[];
  /**
   * Beside the settings' `outbox` (how often due jobs are looked for besides the nudge after
   * each commit, jobs claimed per step, attempts at once, the grace `stop` gives attempts in
   * flight): tests shorten or lengthen one for a single worker.
   */
  pollMs?: number;
  batchSize?: number;
  concurrency?: number;
  stopGraceMs?: number;
  /** Jitter source of the retry schedule; default `Math.random`. */
  random?: RandomSource;
}

/** What one run did. */
export interface OutboxRunSummary {
  done: number;
  retry: number;
  dead: number;
  /** Jobs whose trigger is missing or inactive: held until it is back. */
  held: number;
  left: number;
  /** Attempts that threw (e.g. the database failed); their jobs stay as they were. */
  errors: number;
  /** Attempts whose claim had passed to another process: their outcome was dropped. */
  lost: number;
}

/** The step that claims and runs due jobs: `runOnce` until none is due. */
export interface OutboxRunner {
  runOnce(): Promise<OutboxRunSummary>;
}

/**
 * Runs due jobs until none is left (or `halt`/`signal` aborts). A job is attempted at most
 * once per run, so a retry that falls due at once waits for the next run.
 *
 * @example
 * const runner = createOutboxRunner({ ...deps, batchSize: 50, concurrency: 8, out: console.log });
 * await runner.runOnce(); // { done: 1, retry: 0, dead: 0, held: 0, left: 0, errors: 0, lost: 0 }
 */
export function createOutboxRunner(
  deps: AttemptDeps & {
    batchSize?: number;
    concurrency?: number;
    out?: (line: string) => void;
    /** Once aborted, no further jobs are claimed (attempts in flight go on). */
    halt?: AbortSignal;
    /** How long a claim lasts without renewal; default `workers.leaseMs`'s. */
    leaseMs?: number;
  },
): OutboxRunner {
  const batchSize = deps.batchSize ?? TUNING_DEFAULTS.outbox.batchSize;
  const leaseMs = deps.leaseMs ?? CONFIG_DEFAULTS.workers.leaseMs;
  const until = () => formatTimestamp(new Date(deps.clock.now().getTime() + leaseMs));
  const concurrency = Math.max(1, deps.concurrency ?? TUNING_DEFAULTS.outbox.concurrency);
  const out = deps.out ?? (() => {});
  const storage = deps.engine.context.storage;
  return {
    async runOnce() {
      const summary: OutboxRunSummary = { done: 0, retry: 0, dead: 0, held: 0, left: 0, errors: 0, lost: 0 };
      const seen = new Set<string>();
      while (!deps.signal?.aborted && !deps.halt?.aborted) {
        const token = newLeaseOwner();
        const claimed = await storage.claimDueJobs(formatTimestamp(deps.clock.now()), batchSize, { token, until: until() });
        const fresh = claimed.filter((j) => !seen.has(j.id));
        // A retry that fell due at once waits for the next run: released, not held.
        for (const j of claimed) if (seen.has(j.id)) await storage.finishJob(j.id, token, releasedUpdate(j)).catch(() => false);
        if (fresh.length === 0) break;
        for (const j of fresh) seen.add(j.id);
        const renewal = _renewWhile(() => storage.renewJobClaims([token], until()), leaseMs, out);
        try {
          await _eachLimited(fresh, concurrency, async (job) => {
            try {
              const { result, update } = await attemptJob(deps, job, token);
              summary[result] += 1;
              if (result === "lost") out(`outbox: job ${job.id} (${job.trigger}, ${job.action}) was taken over by another process after its claim lapsed; this attempt's outcome is dropped`);
              else if (result !== "done" && result !== "left" && update) out(_describe(job, result, update.lastError, update.nextAttemptAt));
            } catch (e) {
              summary.errors += 1;
              out(`outbox: job ${job.id} (${job.trigger}, ${job.action}) could not be recorded: ${e instanceof Error ? e.message : String(e)}`);
            }
          });
        } finally {
          await renewal.stop();
        }
        if (claimed.length < batchSize) break;
      }
      return summary;
    },
  };
}

/**
 * A worker factory for `startServer({ workers })`.
 *
 * @example
 * startServer({ ..., workers: [createOutboxWorkerFactory({ pollMs: 200 })] });
 */
export function createOutboxWorkerFactory(opts: OutboxWorkerOptions = {}): WorkerFactory {
  return (ctx) => _worker(ctx, opts);
}

/** The outbox worker with its defaults: the one `startServer` runs. */
export const createOutboxWorker: WorkerFactory = createOutboxWorkerFactory();

/** An outbox worker that can also be asked to run every due job now (the manual clock's advance). */
export interface SettlingOutboxWorker extends Worker {
  /** Runs every job due at the clock's time; resolves when no pass is running. */
  settle(): Promise<void>;
}

/**
 * The outbox worker with a `settle` step, for the manual clock's driver.
 *
 * @example
 * const outbox = createSettlingOutboxWorker(ctx); outbox.start(); await outbox.settle();
 */
export function createSettlingOutboxWorker(ctx: WorkerContext, opts: OutboxWorkerOptions = {}): SettlingOutboxWorker {
  return _worker(ctx, opts);
}

// --- internal ---

function _describe(job: OutboxJob, result: AttemptResult, error: string | null, next: string): string {
  const what = `outbox: ${job.action} for ${job.trigger} (delivery ${job.deliveryId}, attempt ${job.attempts + 1})`;
  if (result === "retry") return `${what} failed: ${error ?? "unknown error"}; next attempt at ${next}`;
  if (result === "held") return `outbox: ${job.action} for ${job.trigger} (delivery ${job.deliveryId}) ${error ?? "held"}`;
  return `${what} gave up: ${error ?? "unknown error"}`;
}

/**
 * Calls `renew` every third of `leaseMs` until stopped (one call at a time); `stop` waits
 * for a call in progress.
 */
function _renewWhile(renew: () => Promise<unknown>, leaseMs: number, out: (line: string) => void): { stop(): Promise<void> } {
  let busy: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (busy) return;
    busy = renew()
      .then(() => undefined)
      .catch((e: unknown) => out(`outbox: renewing a claim failed: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        busy = undefined;
      });
  }, Math.max(1, Math.floor(leaseMs / 3)));
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await busy;
    },
  };
}

async function _eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

function _worker(ctx: WorkerContext, opts: OutboxWorkerOptions): SettlingOutboxWorker {
  const { outbox } = ctx.settings;
  const tuning = {
    pollMs: opts.pollMs ?? outbox.pollMs,
    batchSize: opts.batchSize ?? outbox.batchSize,
    concurrency: opts.concurrency ?? outbox.concurrency,
    stopGraceMs: opts.stopGraceMs ?? outbox.stopGraceMs,
  };
  const abort = new AbortController();
  const halt = new AbortController();
  const registry = createActionRegistry((opts.handlers ?? createDefaultActionHandlers)(ctx));
  const runner = createOutboxRunner({
    // What an attempt writes (the event's tag, a journal entry) is the service's own work.
    engine: ctx.engine.withAttribution(systemAttribution("outbox")),
    clock: ctx.clock,
    secret: ctx.secret,
    registry,
    policy: {
      ...DEFAULT_RETRY_POLICY,
      firstRetryDelayMs: ctx.settings.webhooks.firstRetryDelayMs,
      retryWindowHours: ctx.settings.webhooks.retryWindowHours,
    },
    random: opts.random ?? Math.random,
    signal: abort.signal,
    halt: halt.signal,
    batchSize: tuning.batchSize,
    concurrency: tuning.concurrency,
    out: ctx.out,
    leaseMs: ctx.settings.workers.leaseMs,
  });
  let unsubscribe: (() => void) | undefined;
  const loop = createPollLoop({
    pollMs: tuning.pollMs,
    run: () => runner.runOnce(),
    onError: (e) => ctx.out(`outbox: run failed: ${e instanceof Error ? e.message : String(e)}`),
  });

  return {
    name: "outbox",
    settle: () => loop.settle(),
    start() {
      unsubscribe = ctx.engine.onJobsQueued(() => loop.kick());
      loop.kick();
    },
    async stop() {
      halt.abort();
      unsubscribe?.();
      const inFlight = loop.halt();
      if (!inFlight) return;
      const grace = new Promise<void>((resolve) => setTimeout(resolve, tuning.stopGraceMs).unref());
      await Promise.race([inFlight, grace]);
      abort.abort();
      await inFlight;
    },
  };
}
