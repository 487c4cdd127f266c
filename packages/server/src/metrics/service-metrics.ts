/**
 * @module metrics/service-metrics
 * What `GET /metrics` reports, in Prometheus text (prom-client). Two kinds of series:
 * - this process's own, labelled `pid`: requests by route pattern and status with latency
 *   histograms, open change-feed streams, the workers it runs, its database pool and busy
 *   retries, and prom-client's process metrics (event-loop lag, memory, CPU, GC);
 * - the shared database's, without `pid`: outbox jobs by status, the age of the oldest due
 *   job, tasks running. They are read once per scrape (one `outboxStats`, one lease list),
 *   never per request, and every process reports the same values: aggregate them with
 *   `max`, not `sum`.
 */
import { busyRetryCount, formatTimestamp, LEASE_KEY_PREFIX, parseTimestamp, type Clock, type Storage } from "@records-service/core";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Options of `createServiceMetrics`. */
export interface ServiceMetricsOptions {
  storage: Storage;
  clock: Clock;
  /** The names of the workers running in this process (read at scrape time). */
  workers?: () => readonly string[];
  /** The `pid` label; default this process's. */
  pid?: number;
}

/** The metrics of one running server (one process). */
export interface ServiceMetrics {
  /** This server's series (process metrics live in `processRegistry()`). */
  readonly registry: Registry;
  /** Counts one answered request. `route` is the matched route pattern, never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Counts an open change-feed stream; call the returned function once when it ends. */
  streamOpened(): () => void;
  /** The whole exposition (this server's series and the process's), for `GET /metrics`. */
  render(): Promise<string>;
  readonly contentType: string;
}

/** Latency buckets (seconds): from a cached read to a slow export. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Outbox statuses always reported (0 when there are none), so alerts see a series. */
const REPORTED_JOB_STATUSES = ["pending", "held", "dead"] as const;

/**
 * The metrics of a server over `storage`.
 *
 * @example
 * const metrics = createServiceMetrics({ storage, clock });
 * metrics.observeRequest("GET", "/api/v1/:flock/:type", 200, 0.004);
 * const text = await metrics.render();
 */
export function createServiceMetrics(opts: ServiceMetricsOptions): ServiceMetrics {
  const { storage, clock } = opts;
  const pid = String(opts.pid ?? process.pid);
  const registry = new Registry();
  const requests = new Counter({
    name: "records_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["pid", "method", "route", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "records_http_request_duration_seconds",
    help: "Time to answer (to the headers, for streams), by method, route pattern and status",
    labelNames: ["pid", "method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const subscribers = new Gauge({
    name: "records_change_feed_subscribers",
    help: "Change-feed (Server-Sent Events) streams open in this process",
    labelNames: ["pid"] as const,
    registers: [registry],
  });
  subscribers.set({ pid }, 0);
  new Gauge({
    name: "records_workers_running",
    help: "Background workers running in this process (1 per worker)",
    labelNames: ["pid", "worker"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const worker of opts.workers?.() ?? []) this.set({ pid, worker }, 1);
    },
  });
  let retriesSeen = busyRetryCount();
  new Counter({
    name: "records_db_busy_retries_total",
    help: "Writes this process ran again because the database was busy (SQLite's lock, PostgreSQL's deadlock or serialization failure)",
    labelNames: ["pid"] as const,
    registers: [registry],
    collect() {
      const now = busyRetryCount();
      this.inc({ pid }, now - retriesSeen);
      retriesSeen = now;
    },
  });
  // Only an adapter with a pool (PostgreSQL) reports one; its answer is never undefined later.
  if (storage.poolStats() !== undefined) {
    const poolStats = () => storage.poolStats()!;
    new Gauge({
      name: "records_db_pool_connections",
      help: "This process's PostgreSQL connections, by state (in_use, idle)",
      labelNames: ["pid", "state"] as const,
      registers: [registry],
      collect() {
        const p = poolStats();
        this.set({ pid, state: "in_use" }, p.total - p.idle);
        this.set({ pid, state: "idle" }, p.idle);
      },
    });
    new Gauge({
      name: "records_db_pool_waiting",
      help: "Queries of this process waiting for a PostgreSQL connection",
      labelNames: ["pid"] as const,
      registers: [registry],
      collect() {
        this.set({ pid }, poolStats().waiting);
      },
    });
  }

  // --- the shared database's gauges: one read per scrape ---
  const snapshot = _shared(() => _readDatabase(storage, clock));
  new Gauge({
    name: "records_database_up",
    help: "1 when this scrape could read the database, 0 when it could not",
    registers: [registry],
    // Over the processes of `--processes N`: up only if every one could read it.
    aggregator: "min",
    async collect() {
      this.set((await snapshot()) ? 1 : 0);
    },
  });
  _databaseGauge(registry, snapshot, {
    name: "records_outbox_jobs",
    help: "Outbox jobs by status (pending, held, dead; delivered jobs are not counted), in the whole database",
    labelNames: ["status"] as const,
  }, (gauge, s) => {
    for (const status of REPORTED_JOB_STATUSES) gauge.set({ status }, 0);
    for (const [status, n] of Object.entries(s.outbox.byStatus)) gauge.set({ status }, n ?? 0);
  });
  _databaseGauge(registry, snapshot, {
    name: "records_outbox_oldest_due_seconds",
    help: "How long the earliest pending job that is due has been waiting (0 when none is due), in the whole database",
  }, (gauge, s) => {
    const due = s.outbox.oldestDueAt ? parseTimestamp(s.outbox.oldestDueAt) : undefined;
    gauge.set(due ? Math.max(0, (s.at - due.getTime()) / 1000) : 0);
  });
  _databaseGauge(registry, snapshot, {
    name: "records_tasks_running",
    help: "Tasks (bulk actions and other long work) a process is running now, holding the task's lease, in the whole database",
  }, (gauge, s) => gauge.set(s.tasksRunning));

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const labels = { pid, method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    streamOpened() {
      subscribers.inc({ pid });
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        subscribers.dec({ pid });
      };
    },
    async render() {
      return (await Registry.merge([processRegistry(), registry]).metrics());
    },
    contentType: registry.contentType,
  };
}

/**
 * prom-client's process metrics (event-loop lag, resident memory, heap, CPU, GC, handles),
 * labelled with this process's `pid`: one registry per process, however many servers it runs.
 *
 * @example
 * await processRegistry().metrics();
 */
export function processRegistry(): Registry {
  if (!_process) {
    _process = new Registry();
    collectDefaultMetrics({ register: _process, labels: { pid: String(process.pid) } });
  }
  return _process;
}

// --- internal ---

let _process: Registry | undefined;

/** What one scrape reads from the database. */
interface _DatabaseSnapshot {
  /** Epoch ms of the read (the service's clock). */
  at: number;
  outbox: Awaited<ReturnType<Storage["outboxStats"]>>;
  tasksRunning: number;
}

/** Leases looked at for the running tasks; more running tasks than this report this many. */
const _MAX_TASK_LEASES = 1000;

async function _readDatabase(storage: Storage, clock: Clock): Promise<_DatabaseSnapshot | undefined> {
  const now = clock.now();
  try {
    const [outbox, taskLeases] = await Promise.all([
      storage.outboxStats(formatTimestamp(now)),
      // The task worker's leases are `task:{flock}:{id}` (workers/tasks); live ones only.
      storage.listLimits(`${LEASE_KEY_PREFIX}task:`, now.getTime(), _MAX_TASK_LEASES),
    ]);
    return { at: now.getTime(), outbox, tasksRunning: taskLeases.length };
  } catch {
    // The scrape still answers (with records_database_up 0): a metrics endpoint that fails
    // when the database does is no help in finding out that it did.
    return undefined;
  }
}

/**
 * A gauge of the shared database, set by `fill` from this scrape's snapshot: every process
 * reports the same value (merged as "first"), and none when the database could not be read.
 */
function _databaseGauge<T extends string = string>(
  registry: Registry,
  snapshot: () => Promise<_DatabaseSnapshot | undefined>,
  opts: { name: string; help: string; labelNames?: readonly T[] },
  fill: (gauge: Gauge<T>, s: _DatabaseSnapshot) => void,
): void {
  new Gauge<T>({
    ...opts,
    registers: [registry],
    aggregator: "first",
    async collect() {
      const s = await snapshot();
      this.reset();
      if (s) fill(this, s);
    },
  });
}

/**
 * `read` shared by every caller until it settles: prom-client asks each metric to collect in
 * one synchronous pass, so the gauges of one scrape share one read and the next scrape reads
 * again.
 */
function _shared<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
}
