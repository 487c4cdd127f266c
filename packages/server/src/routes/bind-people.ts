/**
 * @module routes/bind-people
 * For people: the console at `/` and `/console/`, and the OpenAPI document of every route with
 * its reference page.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { consoleRoutes } from "./console.js";
import { referenceRoutes } from "./reference.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindPeople(staged, deps);
 */
export function bindPeople(app: Hono<AppEnv>, deps: RouteDeps): void {
  const reference = referenceRoutes(deps.document);
  const people = consoleRoutes(deps.consoleDist);

  route(app, "GET", "/api/openapi.json", reference.getOpenapiJson);
  route(app, "GET", "/api/docs", reference.getDocs);
  route(app, "GET", "/api/docs/assets/:file", reference.getDocsAssetsFile);
  route(app, "GET", "/", people.redirectRootToConsole);
  route(app, "GET", "/console", people.addConsoleSlash);
  route(app, "GET", "/console/*", people.serveConsole);
}
