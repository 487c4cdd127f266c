/**
 * @module app
 * The HTTP application: one Hono app with a route file per area, one error handler that
 * gives every error the contract's shape, an optional structured access log and a body
 * size cap. It holds no state of its own; everything lives behind the engine's Storage.
 */
import type { RecordEngine } from "@records-service/core";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./http/env.js";
import { describeError, errorResponse } from "./http/errors.js";
import { createAccessLog, type LogSink } from "./middleware/access-log.js";
import { createBodyLimit, DEFAULT_BODY_LIMIT_BYTES } from "./middleware/body-limit.js";
import { createAuthRoutes } from "./routes/auth.js";
import { createDiscoveryRoutes } from "./routes/discovery.js";
import { createFileRoutes } from "./routes/files.js";
import { createRecordActionRoutes } from "./routes/record-actions.js";
import { createRecordRoutes } from "./routes/records.js";
import { createStatusRoutes } from "./routes/status.js";

/** Options of `createApp`. Only `engine` is required. */
export interface AppOptions {
  /** The record engine; its context supplies storage and clock. */
  engine: RecordEngine;
  /** Largest accepted request body, files included. Default 10 MiB; larger bodies get 413. */
  bodyLimitBytes?: number;
  /**
   * Receives one object per request: time, method, path, status, duration_ms, application
   * (the APPLICATION header or null), plus error and stack for a 500. Default: no log.
   */
  log?: LogSink;
}

/**
 * Builds the HTTP app. Every path answers with or without a trailing slash.
 *
 * @example
 * const engine = createRecordEngine({ storage: createMemoryStorage() });
 * const app = createApp({ engine, log: (line) => console.log(JSON.stringify(line)) });
 * const res = await app.request("/api/v1/ping/"); // 200 {"message":"pong"}
 */
export function createApp(opts: AppOptions): Hono<AppEnv> {
  const { engine } = opts;
  const { storage, clock } = engine.context;
  const app = new Hono<AppEnv>({ strict: false });

  if (opts.log) app.use(createAccessLog(opts.log, clock));
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        errorResponse(c, {
          status: 405,
          error: "method not allowed",
          detail: `${c.req.method} is not accepted on this path; it accepts ${methods.join(", ")}`,
          headers: { Allow: methods.join(", ") },
        }),
    }),
  );
  app.use(createBodyLimit(opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES));

  // Order matters where paths overlap: `/ping`, `/health` and `/auth` come before `/:flock`.
  app.route("/api/v1", createStatusRoutes(storage));
  app.route("/api/v1", createAuthRoutes(storage, clock));
  app.route("/api/v1", createDiscoveryRoutes(storage, clock));
  app.route("/api/v1", createRecordActionRoutes(engine));
  app.route("/api/v1", createRecordRoutes(engine, "v1"));
  app.route("/files/v1", createFileRoutes(storage, clock));

  app.notFound((c) =>
    errorResponse(c, { status: 404, error: "not found", detail: `no such path: ${c.req.method} ${_short(c.req.path)}` }),
  );
  app.onError((err, c) => {
    const info = describeError(err);
    if (info.unexpected) c.set("unexpectedError", info.unexpected);
    if (info.status === 401) info.headers = { ...info.headers, "WWW-Authenticate": 'Bearer realm="records"' };
    return errorResponse(c, info);
  });
  return app;
}

// --- internal ---

function _short(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}
