/**
 * @module metrics/metrics-routes
 * `GET /metrics`: the Prometheus text of `ServiceMetrics`, for a scraper holding the
 * configured bearer token (compared in constant time). Served on the API's port when the
 * config gives a token, or alone on a port of its own (metrics/metrics-listener).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { RecordsError } from "@records-service/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { documented } from "../openapi/describe.js";
import type { ServiceMetrics } from "./service-metrics.js";

/** What `/metrics` serves: one server's metrics, or (the primary of `--processes N`) every process's. */
export type MetricsSource = Pick<ServiceMetrics, "render" | "contentType">;

/**
 * The `/metrics` route. With `token`, a request without `Authorization: Bearer <token>` gets
 * 401; without one (a port of its own on 127.0.0.1), anyone who can reach it may read it.
 *
 * @example
 * app.route("/", createMetricsRoutes(metrics, { token: config.metrics.token }));
 */
export function createMetricsRoutes(metrics: MetricsSource, opts: { token?: string | undefined }): Hono<AppEnv> {
  const routes = new Hono<AppEnv>({ strict: false });
  const expected = opts.token === undefined ? undefined : _digest(opts.token);
  routes.get(
    "/metrics",
    documented({
      tag: "status",
      summary: "Metrics in Prometheus text (served only when the config enables them)",
      description:
        "Requests by route pattern and status with latency histograms, open change feeds, workers, the database pool and busy retries, process figures (each under the answering process's `pid`), and the database's outbox and task gauges. See docs/deploy.md, Metrics and health.",
      auth: opts.token === undefined ? "none" : "metrics",
      ok: { status: 200, description: "Prometheus text format 0.0.4", media: ["text/plain"] },
      errors: [],
    }),
    async (c) => {
    if (expected && !_matches(c.req.header("authorization"), expected)) {
      throw new RecordsError("unauthorized", "invalid metrics token", "send the token of the config's metrics.token as Authorization: Bearer <token>", {
        headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
      });
    }
    return c.body(await metrics.render(), 200, { "Content-Type": metrics.contentType, "Cache-Control": "no-store" });
    },
  );
  return routes;
}

// --- internal ---

/** Digests of equal length, so the comparison takes the same time whatever was sent. */
function _digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function _matches(header: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m !== null && timingSafeEqual(_digest(m[1]!), expected);
}
