/**
 * @module @records-service/server
 * The Records Service HTTP app and the account functions the CLI and config use.
 *
 * @example
 * import { createApp, createUser } from "@records-service/server";
 */

// --- the app ---
export { createApp, type AppOptions } from "./app.js";
export type { AppEnv } from "./http/env.js";
export type { LogSink } from "./middleware/access-log.js";
export { DEFAULT_BODY_LIMIT_BYTES } from "./middleware/body-limit.js";

// --- accounts ---
export { hashPassword, verifyPassword } from "./auth/passwords.js";
export { hashToken, newToken } from "./auth/tokens.js";
export { createUser, login, normalizeUsername, ROLES, type NewUser, type Role } from "./auth/accounts.js";
export { ALL_FLOCKS, assertFlockAccess, isAdmin, visibleFlocks } from "./auth/access.js";

