/**
 * @module routes/bind-operations
 * Liveness and health, discovery, statistics, the manual clock, triggers, the outbox, the change feed and the value index's registry (core and administrator keys).
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { changesRoutes } from "./changes.js";
import { clockRoutes } from "./clock.js";
import { discoveryRoutes } from "./discovery.js";
import { fieldIndexRoutes } from "./indexes.js";
import { outboxRoutes } from "./outbox.js";
import { statsRoutes } from "./stats.js";
import { statusRoutes } from "./status.js";
import { triggerRoutes } from "./triggers.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindOperations(staged, deps);
 */
export function bindOperations(app: Hono<AppEnv>, deps: RouteDeps): void {
  const status = statusRoutes(deps.shared, deps.health);
  const discovery = discoveryRoutes(deps.engine, deps.guards, deps.flocks);
  const stats = statsRoutes(deps.guards, deps.counts);
  const clock = clockRoutes(deps.guards, deps.clock, deps.clockAdvancer);
  const triggers = triggerRoutes(deps.engine, deps.guards);
  const outbox = outboxRoutes(deps.jobs, deps.clock, deps.guards);
  const changes = changesRoutes(deps.guards, deps.clock, { changes: deps.feeds, accounts: deps.accounts, flocks: deps.flocks, shared: deps.shared }, deps.changes);
  const indexes = fieldIndexRoutes(deps.engine, deps.guards);

  route(app, "GET", "/api/v1/ping", status.pingRoute);
  route(app, "GET", "/api/v1/health", status.healthRoute);
  route(app, "GET", "/api/v1", discovery.getRoot);
  route(app, "GET", "/api/v1/:flock", discovery.getRootRoute);
  route(app, "GET", "/api/v1/_stats/applications", stats.getStatsApplications);
  route(app, "GET", "/api/v1/_clock", clock.getClock);
  route(app, "POST", "/api/v1/_clock/advance", clock.postClockAdvance);
  route(app, "GET", "/api/v1/:flock/triggers", triggers.getTriggers);
  route(app, "GET", "/api/v1/:flock/outbox", outbox.getOutbox);
  route(app, "POST", "/api/v1/:flock/outbox/:id/retry", outbox.postOutboxIdRetry);
  route(app, "GET", "/api/v1/:flock/changes", changes.getChanges);
  route(app, "GET", "/api/v1/:flock/_indexes", indexes.getIndexes);
  route(app, "PUT", "/api/v1/:flock/_indexes/:type/:field", indexes.putIndex);
  route(app, "DELETE", "/api/v1/:flock/_indexes/:type/:field", indexes.deleteIndex);
  route(app, "POST", "/api/v1/:flock/_indexes/:type/:field/reset", indexes.postIndexReset);
}
