/**
 * @module routes/bind-auth
 * API keys (core users) and self-service (member) accounts and sessions.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { authRoutes } from "./auth.js";
import { memberAccountRoutes } from "./member-accounts.js";
import { selfServiceUserRoutes } from "./self-service-users.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindAuth(staged, deps);
 */
export function bindAuth(app: Hono<AppEnv>, deps: RouteDeps): void {
  const auth = authRoutes(deps.flow);
  const users = selfServiceUserRoutes(deps.engine, deps.guards, deps.accounts, deps.flow, deps.passwords);
  const accounts = memberAccountRoutes(deps.engine, deps.guards, deps.loginGuard, deps.accounts, deps.flocks);

  route(app, "POST", "/api/v1/auth", auth.logIn);
  route(app, "POST", "/api/v1/:flock/user", users.postUser);
  route(app, "POST", "/api/v1/:flock/user/auth", users.postUserAuth);
  route(app, "DELETE", "/api/v1/:flock/user/auth", users.deleteUserAuth);
  route(app, "POST", "/api/v1/:flock/user/preauth", accounts.postUserPreauth);
  route(app, "GET", "/api/v1/:flock/user", accounts.getUserRoute);
  route(app, "GET", "/api/v1/:flock/user/:username", accounts.getUserUsername);
  route(app, "GET", "/api/v1/:flock/user/:username/person", accounts.getUserUsernamePerson);
}
