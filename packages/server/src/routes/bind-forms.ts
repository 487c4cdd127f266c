/**
 * @module routes/bind-forms
 * A form's responses (form and sheep_form), newest first, references expanded, on v1 and v2.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import type { RouteDeps } from "./bind.js";
import { createFormRoutes } from "./forms.js";

/**
 * The area's routes (routes/forms: its own table, one route per form type).
 *
 * @example
 * bindForms(staged, deps);
 */
export function bindForms(app: Hono<AppEnv>, deps: RouteDeps): void {
  app.route("/api/v1", createFormRoutes(deps.engine, "v1"));
  app.route("/api/v2", createFormRoutes(deps.engine, "v2"));
}
