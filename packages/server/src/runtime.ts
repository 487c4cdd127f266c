/**
 * @module runtime
 * A whole running server in one call: open the SQLite database, apply the config, seed an
 * empty database, build the engine and the Hono app, listen, start the workers. `close()`
 * shuts down in the contract's order: stop taking requests, finish those in flight, stop
 * the workers, close the database. The CLI, the e2e tests and the in-process example all
 * start servers through `startServer`.
 */
import { createRecordEngine, systemClock, type Clock, type Storage } from "@records-service/core";
import { createManualClockDriver, type ManualClockDriver } from "./clock/driver.js";
import { clockFromSetting, isManualClock, parseClockSetting, type ClockSetting } from "./clock/manual-clock.js";
import { createApp } from "./app.js";
import { createApplicationCounts } from "./protection/application-counts.js";
import { createPasswordHasher, defaultPasswordHasher, type ScryptCost } from "./auth/passwords.js";
import { applyConfig } from "./config/apply.js";
import { flockResourceTypes, parseConfig } from "./config.js";
import type { Config } from "./config/schema.js";
import type { LogSink } from "./middleware/access-log.js";
import { seedIfEmpty } from "./runtime/bootstrap.js";
import { listen } from "./runtime/http.js";
import { DEFAULT_WORKERS } from "./runtime/default-workers.js";
import { createOutboxWorker } from "./workers/outbox.js";
import { schedulerWorker } from "./workers/scheduler.js";
import { resolveTriggers, triggerProvider } from "./runtime/triggers.js";
import { startWorkers, type WorkerFactory } from "./runtime/workers.js";
import { describeDb, openStorage } from "./storage-open.js";

export { SHUTDOWN_GRACE_MS } from "./runtime/http.js";
export type { Worker, WorkerContext, WorkerFactory, WorkerGroup } from "./runtime/workers.js";

/** Options of `startServer`. */
export interface ServerOptions {
  /** SQLite file path (created with its folder if missing), or `":memory:"`. */
  db: string;
  host: string;
  /** 0 picks a free port; the real one is in the result. */
  port: number;
  /** A parsed config (see `loadConfig`/`parseConfig`); default: empty. */
  config?: Config;
  /** Receives one object per request (the access log); none: no access log. */
  log?: LogSink;
  /** Operator messages (first-start credentials, listening line); default: discarded. */
  out?: (line: string) => void;
  /**
   * The service's clock. Default: from the config's `clock` (the system clock, or a manual
   * one). A `ManualClock` turns on the emulator: `/api/v1/_clock/` and its advance, driven by
   * the manual clock worker in place of the scheduler and outbox workers.
   */
  clock?: Clock;
  /** Background workers to run beside the HTTP API. Default `DEFAULT_WORKERS` (the outbox). */
  workers?: readonly WorkerFactory[];
  /**
   * Triggers beside the config file's, written as config entries (`{flock, trigger, action,
   * url, ...}`) and checked by the same rules; a bad one is a `ConfigError`.
   */
  triggers?: readonly unknown[];
  /** The scrypt cost of password hashes (default `DEFAULT_SCRYPT_COST`, N = 2^17); tests pass a cheap one. */
  passwordCost?: ScryptCost;
  /**
   * Create flock `demo` and an admin user on an empty database, printing the credentials
   * (default true). The processes of `serve --processes N` leave it to the primary, so the
   * credentials are printed once.
   */
  seed?: boolean;
}

/** A running server. */
export interface RunningServer {
  /** `http://HOST:PORT`, with the real port. */
  url: string;
  port: number;
  storage: Storage;
  /** Graceful shutdown; resolves when the database is closed. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts a server. Throws `ConfigError` for a config that does not apply, and the listen
 * error (e.g. EADDRINUSE); either way the database is closed again.
 *
 * @example
 * const server = await startServer({ db: ":memory:", host: "127.0.0.1", port: 0 });
 * await fetch(`${server.url}/api/v1/ping/`); await server.close();
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const out = opts.out ?? (() => {});
  const config = opts.config ?? parseConfig({});
  const clock = opts.clock ?? clockFromSetting(parseClockSetting(config.clock) as ClockSetting);
  for (const warning of config.warnings) out(warning);
  const triggers = resolveTriggers(config, opts.triggers);
  for (const warning of triggers.warnings) out(warning);
  const storage = await openStorage(opts.db, config.database);
  try {
    const passwords = opts.passwordCost ? createPasswordHasher(opts.passwordCost) : defaultPasswordHasher();
    const { secret } = await applyConfig(storage, clock, config, passwords);
    const engine = createRecordEngine({
      storage,
      clock,
      triggers: triggerProvider(triggers.triggers),
      flockResourceTypes: flockResourceTypes(config),
    });
    // Counted here so that shutdown can merge the last second of counts into the database.
    const counts = createApplicationCounts({ storage, clock });
    const workerContext = { storage, engine, config, clock, secret, out };
    const driver: ManualClockDriver | undefined = isManualClock(clock) ? createManualClockDriver(workerContext, clock) : undefined;
    // Ends every open change feed stream at shutdown, so closing need not wait for them.
    const shutdown = new AbortController();
    const app = createApp({
      ...(driver ? { clockAdvancer: driver.advancer } : {}),
      changes: { shutdown: shutdown.signal },
      engine,
      applicationCounts: counts,
      secret,
      unattributedPerMinute: config.throttle.unattributedPerMinute,
      keyTtlHours: config.auth.keyTtlHours,
      invoicing: config.invoicing,
      ...(opts.passwordCost ? { passwordCost: opts.passwordCost } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
    const listener = await listen(app.fetch, opts.host, opts.port);
    const url = `http://${_hostForUrl(opts.host)}:${listener.port}`;
    // Seed only once the port is ours: credentials printed by a start that then failed to
    // listen would be lost, since the next start finds the database no longer empty.
    if (opts.seed ?? true) _announceSeed(await seedIfEmpty(storage, clock, passwords), out);
    let workers;
    try {
      workers = await startWorkers(_workers(opts.workers ?? DEFAULT_WORKERS, driver), workerContext);
    } catch (e) {
      await listener.close();
      throw e;
    }
    if (driver) out(`records-service: manual clock at ${clock.now().toISOString()}; it moves only through POST /api/v1/_clock/advance/`);
    out(`records-service listening on ${url} (database ${describeDb(opts.db)})`);
    let closing: Promise<void> | undefined;
    return {
      url,
      port: listener.port,
      storage,
      close: () => {
        closing ??= (async () => {
          shutdown.abort();
          await listener.close();
          await workers.stop();
          await counts.close().catch(() => {});
          await storage.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    await storage.close();
    throw e;
  }
}

/** What `prepareDatabase` and `seedDatabase` need: the database, its config, where messages go. */
export type PrepareOptions = Pick<ServerOptions, "db" | "config" | "out" | "clock" | "passwordCost">;

/**
 * Migrates the database and applies the config (idempotently), then closes it: what the
 * primary of `serve --processes N` does once before starting the processes, so that a bad
 * config or an unreachable database fails the start with one message, and the processes
 * do not all migrate at once. Prints the config's warnings.
 *
 * @example
 * await prepareDatabase({ db: "./data/records.db", config, out: console.log });
 */
export async function prepareDatabase(opts: PrepareOptions): Promise<void> {
  const out = opts.out ?? (() => {});
  const config = opts.config ?? parseConfig({});
  for (const warning of config.warnings) out(warning);
  const storage = await openStorage(opts.db, config.database);
  try {
    const passwords = opts.passwordCost ? createPasswordHasher(opts.passwordCost) : defaultPasswordHasher();
    await applyConfig(storage, opts.clock ?? systemClock, config, passwords);
  } finally {
    await storage.close();
  }
}

/**
 * On an empty database, creates flock `demo` and an admin user and prints the credentials
 * (once: the primary of `serve --processes N` calls it when every process is listening).
 *
 * @example
 * await seedDatabase({ db: "./data/records.db", out: console.log });
 */
export async function seedDatabase(opts: PrepareOptions): Promise<void> {
  const storage = await openStorage(opts.db, (opts.config ?? parseConfig({})).database);
  try {
    const passwords = opts.passwordCost ? createPasswordHasher(opts.passwordCost) : defaultPasswordHasher();
    _announceSeed(await seedIfEmpty(storage, opts.clock ?? systemClock, passwords), opts.out ?? (() => {}));
  } finally {
    await storage.close();
  }
}

// --- internal ---

function _announceSeed(seeded: Awaited<ReturnType<typeof seedIfEmpty>>, out: (line: string) => void): void {
  if (!seeded) return;
  out(`created flock "${seeded.flock}" and user "${seeded.username}" with access to every flock (shown only this once):`);
  out(`  username: ${seeded.username}`);
  out(`  password: ${seeded.password}`);
}

/** With a manual clock, its driver runs the scheduler and the outbox (on advances), not their own workers. */
function _workers(workers: readonly WorkerFactory[], driver: ManualClockDriver | undefined): readonly WorkerFactory[] {
  if (!driver) return workers;
  return [...workers.filter((w) => w !== schedulerWorker && w !== createOutboxWorker), () => driver.worker];
}

/** IPv6 literals go in brackets in a URL. */
function _hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
