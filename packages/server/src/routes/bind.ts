/**
 * @module routes/bind
 * What every area's `bindXxx(app, deps)` is given, and `route()`, the one line of an area's
 * route table. Each route file returns its routes as named chains (its description, its guards,
 * its handler); the area's bind function says at which method and path each is served.
 */
import type { AccountStore, ChangeFeedStore, Clock, Connection, FlockStore, JobQueue, SharedState } from "@records-service/core";
import type { Handler, Hono, MiddlewareHandler } from "hono";
import type { OpenAPIV3_1 } from "openapi-types";
import type { LoginFlow } from "../auth/login-flow.js";
import type { PasswordHasher } from "../auth/passwords.js";
import type { ClockAdvancer } from "../clock/advance.js";
import type { InvoiceSettings } from "../gateway/invoices/build.js";
import type { TaskQueue } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import type { RecordQueries } from "../http/record-queries.js";
import type { ResponseCache } from "../http/response-cache.js";
import type { RouteEngine } from "../http/route-engine.js";
import type { RouteGuards } from "../middleware/auth.js";
import type { ApplicationCounts } from "../protection/application-counts.js";
import type { LoginGuard } from "../protection/login-guard.js";
import type { ChangesRouteOptions } from "./changes.js";
import type { HealthOptions } from "./status.js";

/**
 * What the areas' routes are built from; `createApp` makes it once. Records are read and
 * written only through `engine`, whose context holds no Storage (`engine.read` for walks,
 * counts and files, `queries` for core's read-side operations); beside it, routes get
 * only the storage roles that hold no records, and the guards built from them.
 */
export interface RouteDeps {
  engine: RouteEngine;
  /** Core's contact, search, audit and aggregate reads, bound to the engine's context. */
  queries: RecordQueries;
  /** Tasks queued for a request's caller (bulk actions, segment exports and deletes). */
  tasks: TaskQueue;
  /** The key and flock guards, built once from `accounts`, `flocks` and `clock`. */
  guards: RouteGuards;
  /** Logins and their keys (the key guards, login, accounts). */
  accounts: AccountStore;
  /** The flocks (the flock guard, discovery). */
  flocks: FlockStore;
  /** Limit rows and settings (health's database check and leases). */
  shared: SharedState;
  /** The change feed's reads (its flock, changes and watcher; a sync before each key re-check). */
  feeds: ChangeFeedStore & Pick<Connection, "syncChanges">;
  /** The outbox's jobs, to list and retry (the admin's outbox view). */
  jobs: Pick<JobQueue, "listJobs" | "retryJob">;
  clock: Clock;
  flow: LoginFlow;
  loginGuard: LoginGuard;
  passwords: PasswordHasher;
  counts: ApplicationCounts;
  /** The server's secret (signed card and invoice links), read when first needed. */
  secret: () => Promise<string>;
  invoiceSettings: InvoiceSettings;
  /** One single-record response cache for both surfaces: v1 and v2 answer the same text. */
  singles: ResponseCache;
  health: HealthOptions;
  clockAdvancer: ClockAdvancer | undefined;
  changes: ChangesRouteOptions;
  consoleDist: string | undefined;
  /** The app's OpenAPI document (built from the routes once they are all bound). */
  document: () => Promise<OpenAPIV3_1.Document>;
}

/** A route's handlers in order: its description, its guards, its handler. */
export type RouteChain = readonly (MiddlewareHandler<AppEnv, any> | Handler<AppEnv, any>)[];

/**
 * Serves `chain` at `method` (or each of several) and `path`.
 *
 * @example
 * route(app, "GET", "/api/v1/:flock/:type", records.listRecords);
 */
export function route(app: Hono<AppEnv>, method: string | readonly string[], path: string, chain: RouteChain): void {
  app.on([method].flat(), path, ...(chain as [MiddlewareHandler<AppEnv, any>]));
}
