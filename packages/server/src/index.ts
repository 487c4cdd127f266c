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

// --- running a server ---
export { startServer, SHUTDOWN_GRACE_MS, type ServerOptions, type RunningServer } from "./runtime.js";
export type { Worker, WorkerContext, WorkerFactory, WorkerGroup } from "./runtime.js";

// --- the config file ---
export { parseConfig, loadConfig, applyConfig, ConfigError, CONFIG_DEFAULTS, FLOCK_ID_RE } from "./config.js";
export type { AppliedConfig, Config, FlockConfig, MailConfig, SchedulerConfig, TemplateConfig, ThrottleConfig, UserConfig, WebhooksConfig } from "./config.js";
