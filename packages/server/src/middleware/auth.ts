/**
 * @module middleware/auth
 * Bearer-key authentication and flock access, as route middleware built once per app
 * (`createRouteGuards`). `requireKey` answers 401 for a missing, unknown or expired key and
 * 403 for a key of the wrong role; `requireFlock` answers 403/404 for the `:flock` path
 * parameter (see auth/access).
 */
import { formatTimestamp, RecordsError, type AccountStore, type Clock, type FlockStore, type UserRow } from "@records-service/core";
import type { MiddlewareHandler } from "hono";
import { assertFlockAccess } from "../auth/access.js";
import type { Role } from "../auth/accounts.js";
import { hashToken } from "../auth/tokens.js";
import { accountKind } from "../auth/usernames.js";
import type { AppEnv } from "../http/env.js";

/** Tokens longer than this are refused without hashing (ours are 64 characters). */
const MAX_TOKEN_LENGTH = 512;

/** The key and flock guards of every area, built once from the record-free roles. */
export interface RouteGuards {
  /** A bearer key of a user whose role is in `roles` (default: `core`): 401 without a valid key, 403 for another role. */
  requireKey(roles?: readonly Role[]): MiddlewareHandler<AppEnv>;
  /** The `:flock` path parameter names a flock the authenticated user may open (after `requireKey`). */
  requireFlock: MiddlewareHandler<AppEnv>;
}

/**
 * The guards over `accounts` and `flocks`, keys expiring by `clock`.
 *
 * @example
 * const guards = createRouteGuards(accounts, flocks, clock);
 * route(app, "GET", "/api/v1/:flock/:type", [guards.requireKey(), guards.requireFlock, handler]);
 */
export function createRouteGuards(accounts: AccountStore, flocks: FlockStore, clock: Clock): RouteGuards {
  const coreKey = _requireKey(accounts, clock);
  return {
    requireKey: (roles) => (roles === undefined ? coreKey : _requireKey(accounts, clock, roles)),
    requireFlock: _requireFlock(flocks),
  };
}

/**
 * The user of the key whose hash is `tokenHash`, checked as `requireKey` checks it (known,
 * not expired by `clock`, its user existing, of one of `roles`); throws the same 401/403.
 * Long-lived responses (the change feed) call it again to re-check their key.
 *
 * @example
 * const user = await authenticateKey(storage, clock, hashToken(token), ["core"]);
 */
export async function authenticateKey(storage: AccountStore, clock: Clock, tokenHash: string, roles: readonly Role[]): Promise<UserRow> {
  const key = await storage.getApiKey(tokenHash);
  if (!key) throw _unauthorized("the API key is not valid (unknown or revoked)");
  if (key.expires !== null && key.expires <= formatTimestamp(clock.now())) {
    throw _unauthorized("the API key has expired; log in again");
  }
  const user = await storage.getUser(key.username);
  if (!user) throw _unauthorized("the API key's user no longer exists");
  // A row whose role disagrees with its username's namespace is never trusted.
  if (accountKind(user.username) !== user.role) throw _unauthorized("the API key's account is not valid");
  if (!roles.includes(user.role)) {
    throw new RecordsError("forbidden", "forbidden", `a ${user.role} token cannot use this path`);
  }
  return user;
}

/**
 * The key from an `Authorization: Bearer <key>` header, or undefined when the header is
 * missing, malformed or the key is implausibly long.
 *
 * @example
 * bearerToken("Bearer abc") // "abc"
 */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  const token = m?.[1];
  return token && token.length <= MAX_TOKEN_LENGTH ? token : undefined;
}

// --- internal ---

/**
 * Middleware that authenticates `Authorization: Bearer <key>` and puts the user on the
 * context as `user`. Only users whose role is in `roles` (default: `core`) pass; a
 * self-service token on a core path is a 403.
 */
function _requireKey(storage: AccountStore, clock: Clock, roles: readonly Role[] = ["core"]): MiddlewareHandler<AppEnv> {
  return async function requireKey(c, next) {
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw _unauthorized("send the API key as 'Authorization: Bearer <key>'");
    c.set("user", await authenticateKey(storage, clock, hashToken(token), roles));
    await next();
  };
}

/**
 * Middleware that checks the authenticated user may open the `:flock` path parameter.
 * Runs after `requireKey`.
 */
function _requireFlock(storage: FlockStore): MiddlewareHandler<AppEnv> {
  return async function requireFlock(c, next) {
    await assertFlockAccess(storage, c.get("user"), c.req.param("flock") ?? "");
    await next();
  };
}

function _unauthorized(detail: string): RecordsError {
  return new RecordsError("unauthorized", "unauthorized", detail);
}
