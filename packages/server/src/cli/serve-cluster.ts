/**
 * @module cli/serve-cluster
 * `records-service serve --processes N`: N HTTP processes on one port over one database
 * (node:cluster; the primary accepts connections and hands them round-robin to the
 * processes). The primary serves nothing itself. It migrates the database and applies the
 * config once, starts the processes (each runs the ordinary `serve`, see cli/serve, with
 * the configuration applied to the database, and takes up later applies without restart),
 * prints one `listening on` line when all of them listen, and creates the first admin on
 * an empty database only then, so the credentials are printed once. The processes share
 * the primary's stdout: one access log stream (each line names its `pid`). A process that
 * ends without being asked is replaced, after a back-off when replacements keep dying
 * (runtime/restart-backoff). SIGTERM or SIGINT: each process stops taking requests,
 * finishes those in flight and closes the database; the primary exits 0 when all have.
 * A second signal ends everything at once. With `metrics.port`, the primary serves it with
 * every process's series (metrics/cluster-metrics).
 */
import cluster, { type Worker } from "node:cluster";
import { loadConfig, type Config } from "../config.js";
import { prepareDatabase, seedDatabase } from "../runtime.js";
import { createRestartBackoff } from "../runtime/restart-backoff.js";
import { describeDb, openStorage } from "../storage-open.js";
import { readAppliedConfig, storedConfigToConfig } from "../config/stored.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { startFailure } from "./start-failure.js";
import { clusterMetricsSource } from "../metrics/cluster-metrics.js";
import { listenMetrics, METRICS_HOST } from "../metrics/metrics-listener.js";
import type { Listener } from "../runtime/http.js";

type ServeCommand = Extract<Command, { kind: "serve" }>;

/** The messages between the primary and its processes. */
export type ClusterMessage = { records: "listening"; url: string } | { records: "stop" } | { records: "failed"; line: string };

/**
 * The primary: starts, watches and stops the processes; returns the exit code.
 *
 * @example
 * if (cmd.processes > 1 && cluster.isPrimary) return runServeCluster(cmd, io);
 */
export async function runServeCluster(cmd: ServeCommand, io: CliIo): Promise<number> {
  const stopRequested = io.stopRequested();
  let config: Config | undefined;
  try {
    config = cmd.config === undefined ? undefined : loadConfig(cmd.config);
    await prepareDatabase({ db: cmd.db, out: io.out, ...(config ? { config, configSource: cmd.config! } : {}) });
    // Without --config the processes run with the stored configuration: so does the primary's metrics port.
    config ??= await _storedConfig(cmd.db);
  } catch (e) {
    io.err(startFailure(e, cmd));
    return EXIT_FAILED;
  }

  const backoff = createRestartBackoff();
  let metricsListener: Listener | undefined;
  // The process serving each slot (0 .. N-1), replaced in place when it ends.
  const live = new Map<number, { worker: Worker; startedAt: number; listening: boolean }>();
  const restarts = new Set<NodeJS.Timeout>();
  let stopping = false;
  let startFailurePrinted = false;
  let url: string | undefined;
  let onAllListening: () => void = () => {};
  let onStartFailed: (code: number | null) => void = () => {};
  let onAllExited: () => void = () => {};

  const start = (slot: number, replaces?: number): void => {
    const worker = cluster.fork();
    const entry = { worker, startedAt: performance.now(), listening: false };
    live.set(slot, entry);
    worker.on("message", (m: ClusterMessage) => {
      if (m?.records === "failed") {
        // Before the service is up every process fails alike: one line for all of them.
        if (url !== undefined || !startFailurePrinted) io.err(m.line);
        startFailurePrinted = true;
        return;
      }
      if (m?.records !== "listening") return;
      entry.listening = true;
      if (replaces !== undefined && !stopping) io.out(`records-service: process ${worker.process.pid} listening in place of ${replaces}`);
      url ??= m.url;
      if (url !== undefined && [...live.values()].every((e) => e.listening) && live.size === cmd.processes) onAllListening();
      if (stopping) worker.send({ records: "stop" } satisfies ClusterMessage);
    });
    worker.on("exit", (code, signal) => {
      if (live.get(slot)?.worker === worker) live.delete(slot);
      if (stopping) {
        if (live.size === 0) onAllExited();
        return;
      }
      // Before the service was up, a process that could not start (the port taken, the
      // database gone) fails the start: it printed why on stderr.
      if (url === undefined) return onStartFailed(code);
      const wait = backoff.next(slot, performance.now() - entry.startedAt);
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      io.err(`records-service: process ${worker.process.pid} ended (${how}); starting another${wait > 0 ? ` in ${wait} ms` : ""}`);
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) start(slot, worker.process.pid);
      }, wait);
      restarts.add(timer);
    });
  };

  const stopAll = async (): Promise<void> => {
    stopping = true;
    for (const t of restarts) clearTimeout(t);
    restarts.clear();
    if (live.size === 0) return;
    const exited = new Promise<void>((resolve) => (onAllExited = resolve));
    // A process still starting gets the message too, and stops once it is up.
    for (const { worker } of live.values()) if (worker.isConnected()) worker.send({ records: "stop" } satisfies ClusterMessage);
    await exited;
  };

  const up = new Promise<"up" | { failed: number | null }>((resolve) => {
    onAllListening = () => resolve("up");
    onStartFailed = (code) => resolve({ failed: code });
  });
  for (let slot = 0; slot < cmd.processes; slot++) start(slot);
  const first = await Promise.race([up, stopRequested.then((signal) => ({ signal }))]);
  if (typeof first === "object" && "failed" in first) {
    await stopAll();
    return EXIT_FAILED;
  }
  if (first === "up") {
    try {
      await seedDatabase({ db: cmd.db, out: io.out, ...(config ? { config } : {}), ...(cmd.demoData ? { demoData: true } : {}) });
    } catch (e) {
      io.err(startFailure(e, cmd));
      await stopAll();
      return EXIT_FAILED;
    }
    const pids = [...live.values()].map((e) => e.worker.process.pid).join(", ");
    io.out(`records-service listening on ${url} (database ${describeDb(cmd.db)}; ${cmd.processes} processes: ${pids})`);
    const metricsPort = config?.metrics.enabled ? config.metrics.port : undefined;
    if (metricsPort !== undefined) {
      try {
        metricsListener = await listenMetrics(clusterMetricsSource(), { port: metricsPort, token: config?.metrics.token });
        io.out(`records-service: metrics of every process at http://${METRICS_HOST}:${metricsListener.port}/metrics`);
      } catch (e) {
        io.err(`records-service: config "metrics.port" ${metricsPort} cannot be bound on ${METRICS_HOST}: ${e instanceof Error ? e.message : String(e)}`);
        await stopAll();
        return EXIT_FAILED;
      }
    }
  }
  const signal = typeof first === "object" && "signal" in first ? first.signal : await stopRequested;
  io.out(`records-service: ${signal} received, finishing requests in flight and shutting down ${cmd.processes} processes`);
  await metricsListener?.close();
  await stopAll();
  io.out("records-service: stopped");
  return EXIT_OK;
}

// --- internal ---

/** The configuration last applied to the database, if any (what the processes will run with). */
async function _storedConfig(db: string): Promise<Config | undefined> {
  const storage = await openStorage(db);
  try {
    const stored = await readAppliedConfig(storage);
    return stored ? storedConfigToConfig(stored) : undefined;
  } finally {
    await storage.close();
  }
}
