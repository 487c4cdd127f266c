/**
 * @module runtime
 * A whole running server in one call: open the SQLite database, apply the config (or load
 * the one last applied to the database), seed an empty database, build the engine and the
 * Hono app, listen, start the workers, and rebuild the engine, app and workers whenever
 * another process applies a new configuration (runtime/config-watch). `close()`
 * shuts down in the contract's order: stop taking requests, finish those in flight, stop
 * the workers, close the database. The CLI, the e2e tests and the in-process example all
 * start servers through `startServer`.
 */
import { createRecordEngine, INDEX_DEMAND_DEFAULTS, systemAttribution, systemClock, type Clock, type Storage } from "@records-service/core";
import { createManualClockDriver, type ManualClockDriver } from "./clock/driver.js";
import { refuseExistingData } from "./clock/existing-data.js";
import { clockFromSetting, isManualClock, parseClockSetting, type ClockSetting } from "./clock/manual-clock.js";
import { createApp } from "./app.js";
import { createApplicationCounts } from "./protection/application-counts.js";
import { createPasswordHasher, defaultPasswordHasher, type ScryptCost } from "./auth/passwords.js";
import { ConfigError, flockResourceTypes, parseConfig } from "./config.js";
import { CONFIG_DEFAULTS, type Config } from "./config/schema.js";
import { settingsOf } from "./settings.js";
import { storedSecret } from "./config/secret.js";
import { storedConfigToConfig } from "./config/stored.js";
import type { LogSink } from "./middleware/access-log.js";
import { DEMO_FLOCK, seedIfEmpty } from "./runtime/bootstrap.js";
import { seedFlock } from "./seed/seed-flock.js";
import { listen } from "./runtime/http.js";
import { DEFAULT_WORKERS } from "./runtime/default-workers.js";
import { createOutboxWorker } from "./workers/outbox.js";
import { schedulerWorker } from "./workers/scheduler.js";
import { resolveTriggers, triggerProvider } from "./runtime/triggers.js";
import { startWorkers, type WorkerFactory, type WorkerGroup } from "./runtime/workers.js";
import { watchAppliedConfig } from "./runtime/config-watch.js";
import { resumeHeldJobs } from "./runtime/resume-held.js";
import { describeApplied, startConfig } from "./runtime/start-config.js";
import { describeDb, openStorage } from "./storage-open.js";
import { listenMetrics, METRICS_HOST } from "./metrics/metrics-listener.js";
import { shareMetricsWithPrimary } from "./metrics/cluster-metrics.js";
import { createServiceMetrics } from "./metrics/service-metrics.js";
import type { Listener } from "./runtime/http.js";

;
export type { Worker, WorkerContext, WorkerFactory, WorkerGroup } from "./runtime/workers.js";

/** Options of `startServer`. */
export interface ServerOptions {
  /** SQLite file path (created with its folder if missing), or `":memory:"`. */
  db: string;
  host: string;
  /** 0 picks a free port; the real one is in the result. */
  port: number;
  /**
   * A parsed config (see `loadConfig`/`parseConfig`), applied to the database and recorded
   * as its applied configuration. Default: the configuration last applied to the database
   * (config/stored), or the defaults when none was.
   */
  config?: Config;
  /** Where `config` came from, as `config show` names it (the file path). Default `library`. */
  configSource?: string;
  /** How often the process checks for a configuration applied by another (ms). Default: the settings' `configCheckMs` (2 s). */
  configCheckMs?: number;
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
  /** Background workers to run beside the HTTP API. Default `DEFAULT_WORKERS` (outbox, scheduler, tasks, search, backup). */
  workers?: readonly WorkerFactory[];
  /**
   * Triggers beside the config file's, written as config entries (`{flock, trigger, action,
   * url, ...}`) and checked by the same rules; a bad one is a `ConfigError`.
   */
  triggers?: readonly unknown[];
  /** The scrypt cost of password hashes (default `DEFAULT_SCRYPT_COST`, N = 2^17); tests pass a cheap one. */
  passwordCost?: ScryptCost;
  /**
   * Run a manual clock on a database that already holds records (`serve
   * --allow-existing-data`). Default false: such a start throws `ExistingDataError`.
   */
  allowExistingData?: boolean;
  /**
   * Create flock `demo` and an admin user on an empty database, printing the credentials
   * (default true). The processes of `serve --processes N` leave it to the primary, so the
   * credentials are printed once.
   */
  seed?: boolean;
  /**
   * `serve --demo-data`: once started, fill flock `demo` with sample people, memberships,
   * payments and bookings (seed/seed-flock) when it holds no person yet. Default false.
   */
  demoData?: boolean;
  /**
   * As one of the processes of `serve --processes N`: the primary serves `metrics.port` with
   * every process's series, so this process answers the primary's requests for its own
   * instead of listening there (default false).
   */
  metricsViaPrimary?: boolean;
}

/** A running server. */
export interface RunningServer {
  /** `http://HOST:PORT`, with the real port. */
  url: string;
  port: number;
  /** The metrics port's URL (`http://127.0.0.1:PORT`) when the config gives `metrics.port` and this process listens there. */
  metricsUrl?: string;
  storage: Storage;
  /** Checks now for a configuration applied by another process, and runs with it if there is one. */
  checkConfig(): Promise<void>;
  /** Graceful shutdown; resolves when the database is closed. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts a server. Throws `ConfigError` for a config that does not apply,
 * `ExistingDataError` for a manual clock on a database with records (see
 * `allowExistingData`), and the listen error (e.g. EADDRINUSE); either way the database is
 * closed again.
 *
 * @example
 * const server = await startServer({ db: ":memory:", host: "127.0.0.1", port: 0 });
 * await fetch(`${server.url}/api/v1/ping/`); await server.close();
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const out = opts.out ?? (() => {});
  // The clock is the start's (--clock, or the config file's `clock`), never the stored
  // configuration's: a manual clock is one process's emulator, not shared state.
  const clock = opts.clock ?? clockFromSetting(parseClockSetting(opts.config?.clock ?? "system") as ClockSetting);
  if (opts.config) for (const warning of opts.config.warnings) out(warning);
  const passwords = opts.passwordCost ? createPasswordHasher(opts.passwordCost) : defaultPasswordHasher();
  let storage = await openStorage(opts.db, (opts.config ?? parseConfig({})).database);
  try {
    if (isManualClock(clock) && !opts.allowExistingData) await refuseExistingData(storage, opts.db);
    const start = await startConfig(storage, clock, opts.config, { out, passwords, ...(opts.configSource ? { source: opts.configSource } : {}) });
    if (!opts.config) {
      for (const warning of start.config.warnings) out(warning);
      // The stored configuration's pool settings: opened again with them.
      if (!_sameJson(start.config.database, CONFIG_DEFAULTS.database)) {
        await storage.close();
        storage = await openStorage(opts.db, start.config.database);
      }
    }
    // Counted here so that shutdown can merge the last second of counts into the database.
    const counts = createApplicationCounts({ storage, clock });
    // Ends every open change feed stream at shutdown, so closing need not wait for them.
    const shutdown = new AbortController();
    // Feed places being given back as their streams end: awaited before the database closes.
    const releases = new Set<Promise<void>>();
    let workers: WorkerGroup | undefined;
    const workerNames = () => workers?.names ?? [];
    // Metrics follow the configuration the process started with: one registry whose counters
    // outlive a reload, and a port bound once.
    const metricsConfig = start.config.metrics;
    const metrics = metricsConfig.enabled ? createServiceMetrics({ storage, clock, workers: workerNames }) : undefined;
    const build = (config: Config, secret: string) => {
      const triggers = resolveTriggers(config, opts.triggers);
      for (const warning of triggers.warnings) out(warning);
      // One resolved settings object for this configuration: the engine, the app and the workers read the same values.
      const settings = settingsOf(config);
      const engine = createRecordEngine({
        storage,
        clock,
        triggers: triggerProvider(triggers.triggers),
        flockResourceTypes: flockResourceTypes(config),
        indexDemand: { ...INDEX_DEMAND_DEFAULTS, earnAfter: settings.indexes.earnAfter, minRecords: settings.indexes.minRecords },
      });
      const workerContext = { storage, engine, settings, templates: config.templates, clock, secret, out, db: opts.db };
      const driver: ManualClockDriver | undefined = isManualClock(clock) ? createManualClockDriver(workerContext, clock) : undefined;
      const app = createApp({
        ...(metrics ? { metrics: { metrics, token: metricsConfig.port === undefined ? metricsConfig.token : undefined } } : {}),
        workers: workerNames,
        ...(driver ? { clockAdvancer: driver.advancer } : {}),
        changes: { shutdown: shutdown.signal, releases },
        engine,
        settings,
        applicationCounts: counts,
        secret,
        ...(opts.passwordCost ? { passwordCost: opts.passwordCost } : {}),
        ...(opts.log ? { log: opts.log } : {}),
      });
      return { app, settings, workerContext, driver, triggers: triggers.triggers, workers: _workers(opts.workers ?? DEFAULT_WORKERS, driver) };
    };
    let current = build(start.config, start.secret);
    // The listener asks the service in force at each request, so a reload swaps it in place.
    // Node's request goes along (Hono's `c.env`): the body limit reads a body from it.
    const listener = await listen((req, env) => current.app.fetch(req, env), opts.host, opts.port);
    const url = `http://${_hostForUrl(opts.host)}:${listener.port}`;
    let metricsListener: Listener | undefined;
    if (metrics && metricsConfig.port !== undefined) {
      if (opts.metricsViaPrimary) shareMetricsWithPrimary(metrics);
      else {
        try {
          metricsListener = await listenMetrics(metrics, { port: metricsConfig.port, token: metricsConfig.token });
        } catch (e) {
          await listener.close();
          throw _metricsPortError(e, metricsConfig.port);
        }
      }
    }
    // Seed only once the port is ours: credentials printed by a start that then failed to
    // listen would be lost, since the next start finds the database no longer empty.
    if (opts.seed ?? true) _announceSeed(await seedIfEmpty(storage, clock, passwords), out);
    if (opts.demoData) await _fillDemo(storage, clock, out);
    try {
      workers = await startWorkers(current.workers, current.workerContext);
      _announceResumed(await resumeHeldJobs(storage, clock, current.triggers), out);
    } catch (e) {
      await metricsListener?.close();
      await listener.close();
      throw e;
    }
    if (current.driver) out(`records-service: manual clock at ${clock.now().toISOString()}; it moves only through POST /api/v1/_clock/advance/`);
    out(`records-service listening on ${url} (database ${describeDb(opts.db)})`);
    const metricsUrl = metricsListener ? `http://${METRICS_HOST}:${metricsListener.port}` : undefined;
    if (metricsUrl) out(`records-service: metrics at ${metricsUrl}/metrics`);
    let closing: Promise<void> | undefined;
    // Another process (or `config apply`) applied a configuration: rebuild the engine, the
    // app and the workers over it. The old workers stop first (their attempts finish), so
    // no hold decided under the old triggers lands after the resume below.
    const watch = watchAppliedConfig({
      storage,
      token: start.token,
      intervalMs: opts.configCheckMs ?? current.settings.configCheckMs,
      out,
      reload: async (stored) => {
        const config = storedConfigToConfig(stored);
        // Built before anything changes: a configuration that does not resolve (ConfigError) leaves the running one.
        const next = build(config, await storedSecret(storage));
        for (const warning of config.warnings) out(warning);
        if (closing) return;
        await workers?.stop();
        current = next;
        workers = await startWorkers(next.workers, next.workerContext);
        out(`config: now running with the configuration applied ${describeApplied(stored)}`);
        _announceResumed(await resumeHeldJobs(storage, clock, next.triggers), out);
      },
    });
    return {
      url,
      port: listener.port,
      ...(metricsUrl ? { metricsUrl } : {}),
      storage,
      checkConfig: () => watch.check(),
      close: () => {
        closing ??= (async () => {
          shutdown.abort();
          await watch.stop();
          await Promise.all([listener.close(), metricsListener?.close()]);
          await Promise.allSettled([...releases]);
          await workers?.stop();
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
export type PrepareOptions = Pick<ServerOptions, "db" | "config" | "configSource" | "out" | "clock" | "passwordCost" | "demoData">;

/**
 * Migrates the database and applies the config (idempotently; without one, checks that the
 * stored configuration loads and says which it is), then closes it: what the primary of
 * `serve --processes N` does once before starting the processes (which then run with the
 * stored configuration), so that a bad config or an unreachable database fails the start
 * with one message, and the processes do not all migrate at once. Prints the config's warnings.
 *
 * @example
 * await prepareDatabase({ db: "./data/records.db", config, out: console.log });
 */
export async function prepareDatabase(opts: PrepareOptions): Promise<void> {
  const out = opts.out ?? (() => {});
  const config = opts.config;
  if (config) for (const warning of config.warnings) out(warning);
  const storage = await openStorage(opts.db, (config ?? parseConfig({})).database);
  try {
    const passwords = opts.passwordCost ? createPasswordHasher(opts.passwordCost) : defaultPasswordHasher();
    const start = await startConfig(storage, opts.clock ?? systemClock, config, { out, passwords, ...(opts.configSource ? { source: opts.configSource } : {}) });
    if (!config) for (const warning of start.config.warnings) out(warning);
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
    if (opts.demoData) await _fillDemo(storage, opts.clock ?? systemClock, opts.out ?? (() => {}));
  } finally {
    await storage.close();
  }
}

// --- internal ---

/** A metrics port that cannot be bound names the config key (the API's EADDRINUSE names --port). */
function _metricsPortError(e: unknown, port: number): unknown {
  if ((e as NodeJS.ErrnoException)?.code !== "EADDRINUSE") return e;
  return new ConfigError(`config: "metrics.port" ${port} is in use on ${METRICS_HOST}: choose another port`);
}

function _announceResumed(resumed: number, out: (line: string) => void): void {
  if (resumed > 0) out(`outbox: ${resumed} held job(s) resumed: their triggers are configured and active again`);
}

function _sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** How many sample people `--demo-data` adds. */
const DEMO_PERSONS = 50;

/** `--demo-data`: sample records in flock demo, unless it is missing or holds persons already. */
async function _fillDemo(storage: Storage, clock: Clock, out: (line: string) => void): Promise<void> {
  if (!(await storage.getFlock(DEMO_FLOCK.identifier))) return out(`records-service: --demo-data: there is no flock "${DEMO_FLOCK.identifier}" to fill`);
  if ((await storage.summarizeTypes(DEMO_FLOCK.identifier)).some((t) => t.name === "person" && t.count > 0)) {
    return out(`records-service: --demo-data: flock "${DEMO_FLOCK.identifier}" holds persons already; nothing added`);
  }
  // No triggers: sample people must not set off the flock's webhooks or emails.
  const engine = createRecordEngine({ storage, clock }).withAttribution(systemAttribution("seed"));
  const r = await seedFlock(engine, DEMO_FLOCK.identifier, { persons: DEMO_PERSONS, seed: 1 });
  out(`records-service: filled flock "${DEMO_FLOCK.identifier}" with sample data: ${r.person} person, ${r.membership} membership, ${r.payment} payment, ${r.booking} booking records`);
}

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
