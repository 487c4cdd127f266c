/**
 * @module metrics/metrics-listener
 * `metrics.port`: `GET /metrics` alone on a port of its own, bound to 127.0.0.1, so that it
 * is reachable from the machine (a local Prometheus or agent) and never from outside, with
 * the token asked for too when the config gives one. Everything else there is 404.
 */
import { isRecordsError, notFound, RecordsError } from "@records-service/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { answerError } from "../http/errors.js";
import { listen, type Listener } from "../runtime/http.js";
import { createMetricsRoutes, type MetricsSource } from "./metrics-routes.js";

/** Where the metrics port is bound: this machine only. */
export const METRICS_HOST = "127.0.0.1";

/**
 * Listens on `METRICS_HOST:port` (0: a free port) and serves `source` at `/metrics`.
 * Rejects when the port cannot be bound.
 *
 * @example
 * const l = await listenMetrics(metrics, { port: 9464 }); ...; await l.close();
 */
export function listenMetrics(source: MetricsSource, opts: { port: number; token?: string | undefined }): Promise<Listener> {
  const app = new Hono<AppEnv>({ strict: false });
  app.route("/", createMetricsRoutes(source, { token: opts.token }));
  app.notFound((c) => answerError(notFound("not found", "this port serves GET /metrics only"), c));
  // A refusal (the token's 401) keeps its answer; a failure to collect is a 503.
  app.onError((e, c) => answerError(isRecordsError(e) ? e : new RecordsError("unavailable", "metrics unavailable", "the metrics could not be collected; try again"), c));
  return listen(app.fetch, METRICS_HOST, opts.port);
}
