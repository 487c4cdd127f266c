/**
 * @module metrics/cluster-metrics
 * `serve --processes N` with `metrics.port`: node:cluster would hand each scrape of a port
 * the processes share to one of them at random, so a scraper would see one process at a
 * time. Instead the primary serves the port and asks every process for its series over the
 * cluster's IPC (prom-client's AggregatorRegistry). Nothing is summed away: each process's
 * series carry its `pid`, and the database's gauges, the same in every process, are taken
 * once ("first").
 */
import { AggregatorRegistry } from "prom-client";
import type { MetricsSource } from "./metrics-routes.js";
import { processRegistry, type ServiceMetrics } from "./service-metrics.js";

/**
 * In a process of the cluster: answers the primary's requests with this server's series
 * and the process's.
 *
 * @example
 * if (cluster.isWorker) shareMetricsWithPrimary(metrics);
 */
export function shareMetricsWithPrimary(metrics: ServiceMetrics): void {
  AggregatorRegistry.setRegistries([processRegistry(), metrics.registry]);
  // Constructing one registers prom-client's IPC listener in this process.
  new AggregatorRegistry();
}

/**
 * In the primary: every live process's series, gathered on each scrape (a process that does
 * not answer within 5 s fails the scrape, which Prometheus records as down).
 *
 * @example
 * await listenMetrics(clusterMetricsSource(), { port: 9464, token });
 */
export function clusterMetricsSource(): MetricsSource {
  const registry = new AggregatorRegistry();
  return {
    render: () => registry.clusterMetrics(),
    contentType: registry.contentType,
  };
}
