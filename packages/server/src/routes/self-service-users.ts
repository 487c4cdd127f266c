/**
 * @module routes/self-service-users
 * Members' accounts and sessions (contract, "Self-service users"), under `/:flock/user`:
 * a core key creates a member account; the member logs in for a session token that expires
 * after 24 hours and reaches only the self-service paths; `DELETE` on the login path ends
 * the session. Mount before the generic record routes, so `user` is never read as a
 * resource type.
 */
import { badRequest, RecordsError, type AccountStore } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { findCallerPerson } from "../auth/caller-person.js";
import type { LoginFlow } from "../auth/login-flow.js";
import type { PasswordHasher } from "../auth/passwords.js";
import { createSelfServiceUser } from "../auth/self-service-users.js";
import { accountEmail } from "../auth/usernames.js";
import { hashToken } from "../auth/tokens.js";
import { readFields } from "../http/body.js";
import type { AppEnv } from "../http/env.js";
import { bearerToken, type RouteGuards } from "../middleware/auth.js";
import { clientAddress } from "../middleware/client-address.js";
import { tooManyLogins } from "./auth.js";
import { documented } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * Routes `POST /:flock/user` (core key) → 201 `{email, status: "created", username}`;
 * `POST /:flock/user/auth` → 201 `{bearer_token, email, username, first_name, last_name,
 * session_expiry, status}`; `DELETE /:flock/user/auth` (the session's token) → 200.
 *
 * @example
 * const routes = selfServiceUserRoutes(engine, guards, accounts, flow, passwords); route(app, "POST", "/api/v1/:flock/user", routes.postUser);
 */
export function selfServiceUserRoutes(engine: RouteEngine, guards: RouteGuards, accounts: AccountStore, flow: LoginFlow, passwords: PasswordHasher) {
  const { clock } = engine.context;

  return {
    postUser: [describePostUser(), guards.requireKey(), guards.requireFlock, postUser],
    postUserAuth: [describePostUserAuth(), postUserAuth],
    deleteUserAuth: [describeDeleteUserAuth(), guards.requireKey(["self-service"]), guards.requireFlock, deleteUserAuth],
  } as const;

  function describePostUser(): MiddlewareHandler {
    return documented({ tag: "auth", summary: "Create a member (self-service) account", auth: "key", body: { schema: "MemberCredentials", media: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"] }, ok: { status: 201, description: "created", schema: "SelfServiceUserCreated" }, errors: [403, 404, 409] });
  }

  async function postUser(c: Context<AppEnv, "/:flock/user">) {
    const fields = await readFields(c);
    const { email, username } = await createSelfServiceUser(accounts, clock, c.req.param("flock"), fields.email, fields.password, passwords);
    return c.json({ email, status: "created", username }, 201);
  }

  function describePostUserAuth(): MiddlewareHandler {
    return documented({ tag: "auth", summary: "Member login: a self-service token", auth: "none", body: { schema: "MemberCredentials", media: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"] }, ok: { status: 201, description: "the session", schema: "SelfServiceSession" }, errors: [403] });
  }

  async function postUserAuth(c: Context<AppEnv, "/:flock/user/auth">) {
    const flock = c.req.param("flock");
    const fields = await readFields(c);
    const missing = ["email", "password"].filter((f) => !fields[f]);
    if (missing.length > 0) {
      throw badRequest("missing credentials", `${missing.join(" and ")} required (strings, as JSON or form fields)`);
    }
    // Only this flock's member accounts can match; staff accounts use POST /api/v1/auth/.
    const outcome = await flow.attempt({
      account: { kind: "member", flock, email: fields.email! },
      password: fields.password!,
      address: clientAddress(c),
      application: c.get("application") ?? null,
    });
    if (outcome.kind === "locked") throw tooManyLogins(outcome.retryAfterSeconds);
    if (outcome.kind === "denied") {
      throw new RecordsError("forbidden", "invalid credentials", "email and password do not match a member account of this flock");
    }
    const email = accountEmail(outcome.user.username);
    const person = await findCallerPerson(engine, flock, email);
    return c.json(
      {
        bearer_token: outcome.token,
        email,
        username: email,
        first_name: _text(person?.data["first_name"]),
        last_name: _text(person?.data["last_name"]),
        session_expiry: outcome.expires,
        status: "authenticated",
      },
      201,
    );
  }

  function describeDeleteUserAuth(): MiddlewareHandler {
    return documented({ tag: "auth", summary: "Member logout: end this self-service session", auth: "selfService", ok: { status: 200, description: "logged out", schema: "LoggedOut" }, errors: [403, 404] });
  }

  async function deleteUserAuth(c: Context<AppEnv, "/:flock/user/auth">) {
    // requireKey has already accepted this header, so the token is present.
    const token = bearerToken(c.req.header("authorization"))!;
    await accounts.deleteApiKey(hashToken(token));
    return c.json({ status: "logged out" });
  }
}

// --- internal ---

function _text(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
