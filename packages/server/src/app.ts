/**
 * @module app
 * The HTTP application: one Hono app with a route file per area, one error handler that
 * gives every error the contract's shape, an optional structured access log and a body
 * size cap. Records, users, keys, login failures, throttle windows and the counts per calling
 * application live behind the engine's Storage, so every process on one database acts as one
 * service; the app keeps in memory only caches checked against the storage's change
 * generation (brought up to date at the start of every request).
 */
import type { RecordEngine } from "@records-service/core";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./http/env.js";
import { describeError, errorResponse } from "./http/errors.js";
import { createResponseCache } from "./http/response-cache.js";
import { createLoginFlow } from "./auth/login-flow.js";
import { createPasswordHasher, defaultPasswordHasher, type ScryptCost } from "./auth/passwords.js";
import { SELF_SERVICE_SESSION_MS } from "./auth/self-service-users.js";
import { storedSecret } from "./derived/card-url.js";
import { createAccessLog, type LogSink } from "./middleware/access-log.js";
import { createAttribution } from "./middleware/attribution.js";
import { createBodyLimit } from "./middleware/body-limit.js";
import { createFreshReads } from "./middleware/fresh-reads.js";
import { createSecurityHeaders } from "./middleware/security-headers.js";
import { createApplicationCounts, type ApplicationCounts } from "./protection/application-counts.js";
import { createLoginGuard } from "./protection/login-guard.js";
import { createAuthRoutes } from "./routes/auth.js";
import { createAggregateRoutes } from "./routes/aggregates.js";
import { createAuditRoutes, createProvenanceRoutes } from "./routes/audit.js";
import { createBulkRoutes } from "./routes/bulk.js";
import { createCardLinkRoutes } from "./routes/card-link.js";
import { createChangesRoutes, type ChangesRouteOptions } from "./routes/changes.js";
import { createConsoleRoutes } from "./routes/console.js";
import { createFindRoutes } from "./routes/find.js";
import { createFinancePdfRoutes } from "./routes/finance-pdf.js";
import { createFormRoutes } from "./routes/forms.js";
import { createSearchRoutes } from "./routes/search.js";
import { createSegmentRoutes } from "./routes/segments.js";
import { createVehicleSearchRoutes } from "./routes/vehicle-search.js";
import { createEmailSenderRoutes } from "./routes/email-senders.js";
import { createMembershipExtrasRoutes } from "./routes/membership-extras.js";
import { createNotOfferedRoutes } from "./routes/not-offered.js";
import { createContactTypeRoutes } from "./routes/contact-type.js";
import { createContactRoutes, createMemberDetailRoutes } from "./routes/contacts.js";
import { createDerivedRoutes } from "./routes/derived.js";
import { createDiscoveryRoutes } from "./routes/discovery.js";
import { createEventRoutes } from "./routes/events.js";
import { createEventOrderRoutes } from "./routes/event-orders.js";
import { createFileRoutes } from "./routes/files.js";
import { createInvoiceRoutes } from "./routes/invoices.js";
import { createListExportRoutes } from "./routes/list-export.js";
import { createRecordActionRoutes } from "./routes/record-actions.js";
import { createRecordRoutes } from "./routes/records.js";
import { createSelfServiceUserRoutes } from "./routes/self-service-users.js";
import { createMemberAccountRoutes } from "./routes/member-accounts.js";
import { createSelfServiceRoutes } from "./routes/selfservice.js";
import { createSelfServicePdfRoutes } from "./routes/selfservice-pdf.js";
import { createSelfServiceFormRoutes } from "./routes/selfservice-forms.js";
import { createStatsRoutes } from "./routes/stats.js";
import { createStatusRoutes } from "./routes/status.js";
import { createOutboxRoutes } from "./routes/outbox.js";
import { createTriggerRoutes } from "./routes/triggers.js";
import { createReferenceRoutes } from "./routes/reference.js";
import { createClockRoutes } from "./routes/clock.js";
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
  app.use(createAttribution({ clock, storage, unattributedPerMinute, counts }));
  // Other processes' acknowledged writes are seen before any cache is consulted.
  app.use(createFreshReads(storage));
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
  app.use(createBodyLimit(settings.http.bodyLimitBytes));

  // Order matters where paths overlap: `/ping`, `/health`, `/auth`, `/_stats` and `/_clock` come before
  // `/:flock`; `/:flock/user` and `/selfservice` before the generic `/:flock/:type` routes.
  app.route("/", createConsoleRoutes(opts.consoleDist));
  if (opts.metrics?.token !== undefined) app.route("/", createMetricsRoutes(opts.metrics.metrics, { token: opts.metrics.token }));
  app.route("/api/v1", createStatusRoutes(storage, { clock, ...(opts.workers ? { workers: opts.workers } : {}) }));
  app.route("/api/v1", createAuthRoutes(flow));
  app.route("/api/v1", createStatsRoutes(storage, clock, counts));
  // The contact read models (issue 14) claim `/:flock/user/membership` and `/:flock/contact`.
  app.route("/api/v1", createContactRoutes(engine));
  app.route("/api/v1", createContactTypeRoutes(engine, "v1"));
  app.route("/api/v1", createAggregateRoutes(engine, "v1"));
  app.route("/api/v1", createFindRoutes(engine, "/:flock/find/:type"));
  app.route("/api/v1", createProvenanceRoutes(engine));
  app.route("/api/v1", createClockRoutes(storage, clock, opts.clockAdvancer));
  app.route("/api/v1", createSelfServiceUserRoutes(engine, flow, passwords));
  // Member accounts (issue 21): after the contact routes, so `user/membership` keeps its meaning.
  app.route("/api/v1", createMemberAccountRoutes(engine, guard));
  app.route("/api/v1", createDiscoveryRoutes(storage, clock, engine.context.typesOf));
  // Triggers (read-only, from the engine's trigger provider) and the outbox (administrators).
  app.route("/api/v1", createTriggerRoutes(engine));
  app.route("/api/v1", createOutboxRoutes(engine));
  app.route("/api/v1", createChangesRoutes(engine, { ...opts.changes, settings }));
  app.route("/api/v1", createCardLinkRoutes(engine, secret));
  // Before the generic record routes, so `bulk_action` is not taken for a resource type.
  app.route("/api/v1", createBulkRoutes(engine));
  app.route("/api/v1", createRecordActionRoutes(engine));
  app.route("/api/v1", createListExportRoutes(engine));
  app.route("/api/v1", createFormRoutes(engine, "v1"));
  // One single-record cache for both surfaces: v1 and v2 answer the same text.
  const singles = createResponseCache(storage);
  app.route("/api/v1", createRecordRoutes(engine, "v1", singles));
  // v2: the same record handlers on the v2 surface, plus the derived reads and self-service.
  app.route("/api/v2/selfservice", createSelfServiceRoutes(engine));
  app.route("/selfservice/v2", createSelfServiceRoutes(engine));
  app.route("/selfservice/v2", createSelfServiceFormRoutes(engine));
  app.route("/selfservice-pdf/v2", createSelfServicePdfRoutes(engine));
  app.route("/selfservice-pdf/v2", createFinancePdfRoutes(engine, { secret, invoicing: settings.invoicing }));
  app.route("/api/v2", createContactRoutes(engine));
  app.route("/api/v2", createContactTypeRoutes(engine, "v2"));
  app.route("/api/v2", createAggregateRoutes(engine, "v2"));
  app.route("/api/v2", createFindRoutes(engine, "/find/:type/:flock"));
  app.route("/api/v2", createFindRoutes(engine, "/:flock/find/:type"));
  app.route("/api/v2", createProvenanceRoutes(engine));
  app.route("/api/v2", createMemberDetailRoutes(engine));
  app.route("/api/v2", createDerivedRoutes(engine, secret));
  app.route("/api/v2", createRecordActionRoutes(engine));
  app.route("/api/v2", createFormRoutes(engine, "v2"));
  app.route("/api/v2", createRecordRoutes(engine, "v2", singles));
  app.route("/files/v1", createFileRoutes(storage, clock));
  app.route("/search/v2", createSearchRoutes(engine));
  app.route("/audit/v2", createAuditRoutes(engine));
  app.route("/events/v2", createEventRoutes(engine));
  app.route("/events/v2", createEventOrderRoutes(engine));
  app.route("/segments/v2", createSegmentRoutes(engine));
  app.route("/invoices/v2", createInvoiceRoutes(engine, { secret, invoicing: settings.invoicing }));
  // Issue 21, P3: the internal paths served, the vehicle search, and the documented 501s.
  app.route("/search/v2", createVehicleSearchRoutes(engine));
  app.route("/internal/v2", createMembershipExtrasRoutes(engine));
  app.route("/internal/v2", createEmailSenderRoutes(engine));
  app.route("/", createNotOfferedRoutes(engine));
  // The OpenAPI document of every route above (each is described where it is defined) and its reference page.
  app.route("/api", createReferenceRoutes(() => openApiDocument(app)));

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
