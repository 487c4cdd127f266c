/**
 * @module routes/auth
 * `POST /auth`: trade a username and password for an API key. Credentials come as JSON,
 * form-encoded or multipart fields, as clients of the hosted service send them. Attempts go
 * through the login flow: the login guard (429 while locked) and the login data events.
 */
import { badRequest, RecordsError } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { LoginFlow } from "../auth/login-flow.js";
import { readFields } from "../http/body.js";
import type { AppEnv } from "../http/env.js";
import { clientAddress } from "../middleware/client-address.js";
import { documented } from "../openapi/describe.js";

/**
 * Routes `POST /auth` → 200 `{api_key}` (valid for config `auth.keyTtlHours`); 403 when the
 * credentials match no core account (a member's credentials included: members log in at
 * `/{flock}/user/auth/`); 429 with `Retry-After` while the account or address is locked
 * after repeated failures; 400 when a field is missing or the body unreadable.
 *
 * @example
 * const routes = authRoutes(createLoginFlow(engine, guard, options)); route(app, "POST", "/api/v1/auth", routes.logIn);
 */
export function authRoutes(flow: LoginFlow) {

  return {
    logIn: [describeLogIn(), logIn],
  } as const;

  function describeLogIn(): MiddlewareHandler {
    return documented({
      tag: "auth",
      summary: "Log in: trade a username and password for an API key",
      auth: "none",
      body: { schema: "Credentials", media: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"] },
      ok: { status: 200, description: "the API key", schema: "ApiKey" },
      errors: [403],
    });
  }

  async function logIn(c: Context<AppEnv, "/auth">) {
    const fields = await readFields(c);
    const missing = ["username", "password"].filter((f) => !fields[f]);
    if (missing.length > 0) {
      throw badRequest("missing credentials", `${missing.join(" and ")} required (strings, as JSON or form fields)`);
    }
    const outcome = await flow.attempt({
      account: { kind: "core", username: fields.username! },
      password: fields.password!,
      address: clientAddress(c),
      application: c.get("application") ?? null,
    });
    if (outcome.kind === "locked") throw tooManyLogins(outcome.retryAfterSeconds);
    if (outcome.kind === "denied") {
      throw new RecordsError("forbidden", "invalid credentials", "username and password do not match an account");
    }
    return c.json({ api_key: outcome.token });
  }
}

/**
 * The 429 of a locked login: `Retry-After` says when to try again. The same answer whether
 * or not the password would have been right, so a lockout cannot be used to test passwords.
 */
export function tooManyLogins(retryAfterSeconds: number): RecordsError {
  return new RecordsError(
    "rate_limited",
    "too many failed logins",
    `too many failed logins for this account or from this address; try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"} ` +
      "(repeated failures lock logins for 1 minute, doubling up to 15 minutes)",
    { headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}
