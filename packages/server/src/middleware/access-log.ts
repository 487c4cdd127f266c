/**
 * @module middleware/access-log
 * One structured line per request (time, method, path, status, duration, calling
 * application), handed to a sink the caller chooses. Without a sink, nothing is logged,
 * which keeps tests quiet.
 */
import type { Clock } from "@records-service/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";

/** Receives one JSON-serialisable object per request. */
export type LogSink = (line: Record<string, unknown>) => void;

/**
 * Middleware logging each request after it is answered. 5xx lines also carry the error
 * message and stack (they stay in the log; the client sees neither).
 *
 * @example
 * app.use(createAccessLog((line) => console.log(JSON.stringify(line)), systemClock));
 */
export function createAccessLog(log: LogSink, clock: Clock): MiddlewareHandler<AppEnv> {
  return async function accessLog(c, next) {
    const started = performance.now();
    const time = clock.now().toISOString();
    await next();
    const line: Record<string, unknown> = {
      time,
      method: c.req.method,
      // The path as sent (hono strips a trailing slash from c.req.path); no query string, which may hold personal data.
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      // The attribution middleware's label (null when unattributed); a raw header when it is not mounted.
      application: c.get("application") !== undefined ? c.get("application") : (c.req.header("application") ?? null),
    };
    const err = c.get("unexpectedError");
    if (err) {
      line.error = err.message;
      line.stack = err.stack;
    }
    log(line);
  };
}
