/**
 * @module routes/auth
 * `POST /auth`: trade a username and password for an API key. Credentials come as JSON,
 * form-encoded or multipart fields, as clients of the hosted service send them.
 */
import { badRequest, RecordsError, type Clock, type Storage } from "@records-service/core";
import { Hono } from "hono";
import { login } from "../auth/accounts.js";
import { readFields } from "../http/body.js";
import type { AppEnv } from "../http/env.js";

/**
 * Routes `POST /auth` → 200 `{api_key}`; 403 when the credentials match no account; 400
 * when a field is missing or the body unreadable.
 *
 * @example
 * app.route("/api/v1", createAuthRoutes(storage, clock));
 */
export function createAuthRoutes(storage: Storage, clock: Clock): Hono<AppEnv> {
  const routes = new Hono<AppEnv>({ strict: false });
  routes.post("/auth", async (c) => {
    const fields = await readFields(c);
    const missing = ["username", "password"].filter((f) => !fields[f]);
    if (missing.length > 0) {
      throw badRequest("missing credentials", `${missing.join(" and ")} required (strings, as JSON or form fields)`);
    }
    const apiKey = await login(storage, clock, fields.username!, fields.password!);
    if (!apiKey) {
      throw new RecordsError("forbidden", "invalid credentials", "username and password do not match an account");
    }
    return c.json({ api_key: apiKey });
  });
  return routes;
}
