/**
 * @module runtime/workers
 * Where background work plugs into the server: the outbox (webhooks, email), the scheduler
 * (date-relative events) and bulk tasks each provide a `WorkerFactory`. The runtime starts
 * the workers after the HTTP server listens and stops them, newest first, after it has
 * drained its requests and before it closes the database.
 */
import { hostname } from "node:os";
import { newLeaseOwner, type Clock, type RecordEngine, type Storage } from "@records-service/core";
import type { TemplateConfig } from "../config/schema.js";
import type { Settings } from "../settings.js";

/** A background worker. `stop` must finish or abandon its current step, then resolve. */
export interface Worker {
  readonly name: string;
  /** Starts the worker; `false` says it has nothing to do here (not listed among the running, never stopped). */
  start(): void | false | Promise<void | false>;
  stop(): Promise<void>;
}

/** What a worker gets to do its job: the same engine, storage and settings the HTTP API uses. */
export interface WorkerContext {
  storage: Storage;
  engine: RecordEngine;
  /** The resolved settings (settings.ts): the very object the app of this configuration was given. */
  settings: Settings;
  /** The configuration's email templates (config `templates`), for the email actions. */
  templates: readonly TemplateConfig[];
  clock: Clock;
  /** The secret in force (config, or generated and stored on first start); signing keys are derived from it (config/keys). */
  secret: string;
  /** One line of operator output (start-up and failures). */
  out: (line: string) => void;
  /** The `--db` value the server opened (a SQLite path, `:memory:` or a PostgreSQL URL), for work on the file itself (backups). */
  db?: string;
}

/**
 * A lease owner naming this process (`host:pid:random`), so an operator reading the leases
 * (`records-service jobs`) sees which process holds which work.
 *
 * @example
 * withLease(storage, "scheduler", { ttlMs, clock, owner: processLeaseOwner() }, run);
 */
export function processLeaseOwner(): string {
  return `${hostname()}:${process.pid}:${newLeaseOwner()}`;
}

/**
 * Whether lease `owner` (as `processLeaseOwner` names it) was a process of this machine
 * that no longer runs: a server restarted after a crash takes its own predecessor's work
 * over at once rather than after the lease. A pid reused meanwhile only means waiting for
 * the lapse; owners of other machines are never judged.
 *
 * @example
 * withLease(storage, "scheduler", { ttlMs, clock, owner: processLeaseOwner(), isGone: leaseOwnerGone }, run);
 */
export function leaseOwnerGone(owner: string): boolean {
  const [host, pidText] = owner.split(":");
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Builds one worker for a running server. */
export type WorkerFactory = (ctx: WorkerContext) => Worker;

/** The started workers, to stop at shutdown. */
export interface WorkerGroup {
  readonly names: readonly string[];
  /** Stops every worker, newest first; a failing stop is reported and does not keep the others running. */
  stop(): Promise<void>;
}

/**
 * Builds and starts the workers in order. If one fails to start, the ones already started
 * are stopped and the error is rethrown.
 *
 * @example
 * const workers = await startWorkers([createSchedulerWorker], ctx); ...; await workers.stop();
 */
export async function startWorkers(factories: readonly WorkerFactory[], ctx: WorkerContext): Promise<WorkerGroup> {
  const started: Worker[] = [];
  const group: WorkerGroup = {
    get names() {
      return started.map((w) => w.name);
    },
    async stop() {
      for (const w of [...started].reverse()) {
        try {
          await w.stop();
        } catch (e) {
          ctx.out(`worker ${w.name} failed to stop: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      started.length = 0;
    },
  };
  try {
    for (const factory of factories) {
      const worker = factory(ctx);
      if ((await worker.start()) === false) continue;
      started.push(worker);
    }
  } catch (e) {
    await group.stop();
    throw e;
  }
  return group;
}
