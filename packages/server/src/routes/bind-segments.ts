/**
 * @module routes/bind-segments
 * The segments gateway (/segments/v2): saved queries (segment records), found by name,
 * counted, their members listed and exported, and fieldsets.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { fieldsetRoutes } from "./fieldsets.js";
import { createSegmentRoutes } from "./segments.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindSegments(staged, deps);
 */
export function bindSegments(app: Hono<AppEnv>, deps: RouteDeps): void {
  const fieldsets = fieldsetRoutes(deps.engine);

  route(app, "GET", "/segments/v2/:flock/fieldset", fieldsets.getFieldset);
  route(app, "POST", "/segments/v2/:flock/fieldset", fieldsets.postFieldset);
  route(app, "GET", "/segments/v2/:flock/fieldset/:uid", fieldsets.getFieldsetUid);
  route(app, "DELETE", "/segments/v2/:flock/fieldset/:uid", fieldsets.deleteFieldsetUid);
  route(app, "DELETE", "/segments/v2/:flock/fieldset", fieldsets.deleteFieldset);
  // Segments and their members (routes/segments and routes/segment-members: their own tables).
  app.route("/segments/v2", createSegmentRoutes(deps.engine));
}
