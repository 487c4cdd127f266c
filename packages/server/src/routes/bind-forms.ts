/**
 * @module routes/bind-forms
 * A form's responses (form and sheep_form), newest first, references expanded, on v1 and v2.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { formRoutes } from "./forms.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindForms(staged, deps);
 */
export function bindForms(app: Hono<AppEnv>, deps: RouteDeps): void {
  const v1 = formRoutes(deps.engine, deps.guards, "v1");
  const v2 = formRoutes(deps.engine, deps.guards, "v2");

  route(app, "GET", "/api/v1/:flock/form/:uid/responses", v1.listFormResponses);
  route(app, "GET", "/api/v1/:flock/sheep_form/:uid/responses", v1.listSheepFormResponses);
  route(app, "GET", "/api/v2/:flock/form/:uid/responses", v2.listFormResponses);
  route(app, "GET", "/api/v2/:flock/sheep_form/:uid/responses", v2.listSheepFormResponses);
}
