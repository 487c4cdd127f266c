/**
 * @module app
 * The HTTP application: one Hono app with a route file per area, one error handler that
 * gives every error the contract's shape, an optional structured access log and a body
 * size cap. Records, users, keys, login failures, throttle windows and the counts per calling
 * application live behind the engine's Storage, so every process on one database acts as one
 * service; the app keeps in memory only caches checked against the storage's change
 * generation (brought up to date at the start of every request).
 */
import { notFound, RecordsError, type RecordEngine } from "@records-service/core";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./http/env.js";
import { answerError } from "./http/errors.js";
import { createResponseCache } from "./http/response-cache.js";
import { createTaskQueue } from "./http/acting.js";
import { createRecordQueries } from "./http/record-queries.js";
import { createLoginFlow } from "./auth/login-flow.js";
import { createPasswordHasher, defaultPasswordHasher, type ScryptCost } from "./auth/passwords.js";
import { SELF_SERVICE_SESSION_MS } from "./auth/self-service-users.js";
import { storedSecret } from "./derived/card-url.js";
import { createAccessLog, type LogSink } from "./middleware/access-log.js";
import { createRouteGuards } from "./middleware/auth.js";
import { createAttribution } from "./middleware/attribution.js";
import { createBodyLimit } from "./middleware/body-limit.js";
import { createFreshReads } from "./middleware/fresh-reads.js";
import { createSecurityHeaders } from "./middleware/security-headers.js";
import { createApplicationCounts, type ApplicationCounts } from "./protection/application-counts.js";
import { createLoginGuard } from "./protection/login-guard.js";
import type { ChangesRouteOptions } from "./routes/changes.js";
import type { RouteDeps } from "./routes/bind.js";
import { bindAuth } from "./routes/bind-auth.js";
import { bindContacts } from "./routes/bind-contacts.js";
import { bindFinance } from "./routes/bind-finance.js";
import { bindForms } from "./routes/bind-forms.js";
import { bindGatewayEvents } from "./routes/bind-gateway-events.js";
import { bindInternal } from "./routes/bind-internal.js";
import { bindOperations } from "./routes/bind-operations.js";
import { bindPeople } from "./routes/bind-people.js";
import { bindRecords } from "./routes/bind-records.js";
import { bindSegments } from "./routes/bind-segments.js";
import { bindSelfService } from "./routes/bind-self-service.js";
import { mountBySpecificity } from "./routes/route-order.js";
import type { ClockAdvancer } from "./clock/advance.js";
import { openApiDocument } from "./openapi/document.js";
import { createMetricsRoutes } from "./metrics/metrics-routes.js";
import { createRequestMetrics } from "./metrics/request-metrics.js";
import type { ServiceMetrics } from "./metrics/service-metrics.js";
import { resolveSettings, type Settings, type SettingsInput } from "./settings.js";

/** Options of `createApp`. Only `engine` is required. */
export interface AppOptions {
  /** The record engine; its context supplies storage and clock. */
  engine: RecordEngine;
  /**
   * The settings (settings.ts): the resolved `Settings` `startServer` also gives the workers,
   * or some sections (`{ throttle: { unattributedPerMinute: 3 } }`), the rest from the
   * defaults in config/schema.ts. The app reads `throttle`, `auth.keyTtlHours`, `changes`,
   * `invoicing`, `http.bodyLimitBytes` (413 past it), `loginGuard` and `changeStreams`.
   */
  settings?: Settings | SettingsInput;
  /**
   * Receives one object per request: time, method, path, status, duration_ms, application
   * (the APPLICATION header's label, or null when unattributed), plus error and stack for
   * a 500. Default: no log.
   */
  log?: LogSink;
  /**
   * The server's secret; signed member card links are checked with the card key derived from
   * it (config/keys). Default: the database's stored setting `secret` (generated and stored
   * if the database has none), as `startServer` and the CLI use.
   */
  secret?: string;
  /**
   * The scrypt cost of new password hashes and of the dummy check for unknown usernames.
   * Default `DEFAULT_SCRYPT_COST` (N = 2^17); tests that are not about hashing pass a cheap one.
   */
  passwordCost?: ScryptCost;
  /**
   * Where requests are counted per application (`GET /api/v1/_stats/applications/`). Default:
   * a new counter over the storage (pass one to `close()` it at shutdown, so the last second
   * of counts is kept).
   */
  applicationCounts?: ApplicationCounts;
  /**
   * With a manual clock (the engine's clock is then a `ManualClock`): what moves it, for
   * `POST /api/v1/_clock/advance/`. Without it the clock paths answer 404.
   */
  clockAdvancer?: ClockAdvancer;
  /** The change feed's shutdown signal and the releases it awaits; tests fake its timers (see routes/changes). */
  changes?: Omit<ChangesRouteOptions, "settings">;
  /** The built console to serve at `/console/` (default: `@records-service/console`'s `dist/`). */
  consoleDist?: string;
  /**
   * Metrics (the config's `metrics`): requests and open change feeds are counted into
   * `metrics`; with `token`, `GET /metrics` serves them on this app for that bearer token.
   * Without `token` (a port of its own, metrics/metrics-listener) this app has no `/metrics`.
   * Default: nothing counted, `/metrics` 404.
   */
  metrics?: { metrics: ServiceMetrics; token?: string | undefined };
  /** The workers running in this process, for `GET /api/v1/health/` (default none). */
  workers?: () => readonly string[];
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

  const settings = resolveSettings(opts.settings);
  const counts = opts.applicationCounts ?? createApplicationCounts({ storage, clock });
  const unattributedPerMinute = settings.throttle.unattributedPerMinute;
  const passwords = opts.passwordCost ? createPasswordHasher(opts.passwordCost) : defaultPasswordHasher();
  const guard = createLoginGuard({ ...settings.loginGuard, storage, clock });
  const flow = createLoginFlow(engine, guard, {
    passwords,
    coreKeyTtlMs: settings.auth.keyTtlHours * 3_600_000,
    sessionTtlMs: SELF_SERVICE_SESSION_MS,
  });
  let stored: Promise<string> | undefined;
  const secret =
    opts.secret !== undefined
      ? () => Promise.resolve(opts.secret!)
      : // Read once; a failed read is not remembered, so the next request tries again.
        () => (stored ??= storedSecret(storage).catch((e: unknown) => ((stored = undefined), Promise.reject(e))));

  // First, so that it times everything below it and sees every answer.
  if (opts.metrics) app.use(createRequestMetrics(opts.metrics.metrics));
  // Next, so that every answer (throttled, failed, not found) carries them.
  app.use(createSecurityHeaders());
  if (opts.log) app.use(createAccessLog(opts.log, clock));
  // Request metrics read every answer's body after the route; without them an attributed
  // request's answer is final as its route returns it (see securedJson).
  app.use(createAttribution({ clock, storage, unattributedPerMinute, counts, finalHeaders: !opts.metrics }));
  // Other processes' acknowledged writes are seen before any cache is consulted.
  app.use(createFreshReads(storage));
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        answerError(
          new RecordsError("method_not_allowed", "method not allowed", `${c.req.method} is not accepted on this path; it accepts ${methods.join(", ")}`, {
            headers: { Allow: methods.join(", ") },
          }),
          c,
        ),
    }),
  );
  app.use(createBodyLimit(settings.http.bodyLimitBytes));

  // The areas, each with its route table first. They bind onto a staging app in any order;
  // mountBySpecificity serves the most specific path first (routes/route-order).
  const deps: RouteDeps = {
    engine,
    queries: createRecordQueries(engine.context),
    tasks: createTaskQueue(engine),
    guards: createRouteGuards(storage, storage, clock),
    accounts: storage,
    flocks: storage,
    shared: storage,
    jobs: storage,
    feeds: storage,
    clock,
    flow,
    loginGuard: guard,
    passwords,
    counts,
    secret,
    invoiceSettings: { flocks: storage, secret, invoicing: settings.invoicing },
    singles: createResponseCache(storage),
    health: { clock, ...(opts.workers ? { workers: opts.workers } : {}) },
    clockAdvancer: opts.clockAdvancer,
    changes: { ...opts.changes, settings },
    consoleDist: opts.consoleDist,
    // The OpenAPI document of every route (each described beside its handler).
    document: () => openApiDocument(app),
  };
  const staged = new Hono<AppEnv>({ strict: false });
  bindPeople(staged, deps);
  if (opts.metrics?.token !== undefined) staged.route("/", createMetricsRoutes(opts.metrics.metrics, { token: opts.metrics.token }));
  bindOperations(staged, deps);
  bindAuth(staged, deps);
  bindRecords(staged, deps);
  bindContacts(staged, deps);
  bindForms(staged, deps);
  bindSelfService(staged, deps);
  bindGatewayEvents(staged, deps);
  bindSegments(staged, deps);
  bindFinance(staged, deps);
  bindInternal(staged, deps);
  mountBySpecificity(app, staged);

  app.notFound((c) => answerError(notFound("not found", `no such path: ${c.req.method} ${_short(c.req.path)}`), c));
  app.onError(answerError);
  return app;
}

// --- internal ---

function _short(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}
