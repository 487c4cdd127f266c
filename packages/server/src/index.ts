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
export { DEFAULT_BODY_LIMIT_BYTES, MAX_BODY_PARTS, MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH, MAX_JSON_VALUES } from "./http/limits.js";

// --- accounts ---
export {
  createPasswordHasher,
  defaultPasswordHasher,
  hashPassword,
  verifyPassword,
  DEFAULT_SCRYPT_COST,
  type PasswordHasher,
  type ScryptCost,
} from "./auth/passwords.js";
export { hashToken, newToken } from "./auth/tokens.js";
export {
  createUser,
  login,
  revokeAccount,
  normalizeUsername,
  ROLES,
  DEFAULT_KEY_TTL_HOURS,
  MIN_PASSWORD_LENGTH,
  type NewUser,
  type Role,
  type UserChange,
  type LoginOptions,
} from "./auth/accounts.js";
export { accountEmail, memberAccountKey } from "./auth/usernames.js";
export { ALL_FLOCKS, assertFlockAccess, isAdmin, visibleFlocks } from "./auth/access.js";

// --- keys derived from the secret: one per purpose, webhook keys per flock ---
export { /** @public documented in docs/v2.md */ cardKey, deriveKey, formatWebhookKey, parseWebhookKey, webhookKey, webhookKeyInfo, CARD_KEY_INFO, WEBHOOK_KEY_PREFIX } from "./config/keys.js";

// --- derived reads: signed member cards, avatars ---
export { /** @public documented in docs/v2.md */ cardSignature, verifyCardSignature, cardUrl, SIGNATURE_HELP_HREF, type SignatureCheck } from "./derived/card-signature.js";
export { /** @public documented in docs/v2.md */ memberCardUrl, storedSecret, DEFAULT_CARD_BASE_URL, type MemberCardUrlOptions } from "./derived/card-url.js";
export { renderCard, type CardInput } from "./derived/card.js";
export { renderInitialsAvatar, type AvatarFormat, type AvatarImage, type AvatarSubject } from "./derived/avatar.js";

// --- attribution, throttling, login protection, self-service accounts ---
export { parseApplicationHeader, type ApplicationHeader } from "./protection/application-header.js";
export { createApplicationCounts, type ApplicationCounts, type ApplicationStats } from "./protection/application-counts.js";
export { createLoginGuard, LOGIN_GUARD_DEFAULTS, type LoginGuard, type LoginGuardOptions } from "./protection/login-guard.js";
export { createSelfServiceUser, SELF_SERVICE_SESSION_MS } from "./auth/self-service-users.js";
export { findCallerPerson } from "./auth/caller-person.js";

// --- running a server ---
export { startServer, SHUTDOWN_GRACE_MS, type ServerOptions, type RunningServer } from "./runtime.js";

// OpenAPI document and the manual clock (emulator mode)
export { openApiDocument, componentSchemas, API_VERSION } from "./openapi/document.js";
export { serverOpenApiDocument } from "./openapi/server-document.js";
export { /** @public documented in docs/client.md */ COMPONENT_SCHEMAS, type ComponentName } from "./openapi/schemas.js";
export { /** @public documented in docs/client.md */ documented, queryParam, SECURITY_SCHEMES, type RouteDoc, type RouteAuth } from "./openapi/describe.js";
export { createManualClock, parseClockSetting, clockFromSetting, isManualClock, type ManualClock, type ClockSetting } from "./clock/manual-clock.js";
export { createClockAdvancer, nextStop, MAX_ADVANCE_DAYS, type AdvanceDeps, type AdvanceReport, type ClockAdvancer } from "./clock/advance.js";
export type { Worker, WorkerContext, WorkerFactory, WorkerGroup } from "./runtime.js";

// --- the config file ---
export { parseConfig, loadConfig, applyConfig, ConfigError, CONFIG_DEFAULTS, FLOCK_ID_RE } from "./config.js";
export type { AppliedConfig, AuthConfig, Config, FlockConfig, MailConfig, SchedulerConfig, TemplateConfig, ThrottleConfig, UserConfig, WebhooksConfig } from "./config.js";

// --- actions, the outbox worker, triggers ---
export { createActionRegistry, type ActionRegistry } from "./actions/registry.js";
export { createDefaultActionHandlers, type DefaultActionOptions } from "./actions/defaults.js";
export { createWebhookActions, deliverWebhook, WEBHOOK_TIMEOUT_MS, type WebhookActionOptions } from "./actions/webhook.js";
export { createWebhookFetch, type WebhookFetchOptions } from "./actions/webhook-fetch.js";
export { createGuardedLookup, RestrictedTargetError, type GuardedLookupOptions, type Resolver } from "./actions/guarded-lookup.js";
export {
  recordsSignature,
  standardSignature,
  webhookHeaders,
  verifyRecordsSignature,
  verifyStandardSignature,
  type WebhookHeaders,
} from "./actions/signature.js";
export {
  createOutboxWorker,
  createOutboxWorkerFactory,
  createOutboxRunner,
  OUTBOX_DEFAULTS,
  type OutboxWorkerOptions,
  type OutboxRunner,
  type OutboxRunSummary,
} from "./workers/outbox.js";
export { attemptJob, type AttemptDeps, type AttemptResult } from "./workers/outbox-attempt.js";
export { DEFAULT_WORKERS } from "./runtime/default-workers.js";
export { createTaskWorker, createTaskWorkerFactory, TASK_WORKER_DEFAULTS, type TaskWorkerOptions } from "./workers/tasks.js";
export { createBulkRoutes } from "./routes/bulk.js";
export { resolveTriggers, triggerProvider } from "./runtime/triggers.js";

// --- bulk import and export ---
export { /** @public documented in README.md */ importRecords, IMPORT_BATCH_SIZE, type ImportOptions, type ImportProgress, type ImportReport } from "./bulk-io/import-records.js";
export { /** @public documented in README.md */ exportRecords, type ExportOptions } from "./bulk-io/export-records.js";
export { /** @public documented in README.md */ readNdjson, /** @public documented in README.md */ readCsv, detectFormat, cellValue, CsvHeaderError, type ImportRow, type ImportFormat } from "./bulk-io/read-rows.js";
export { envelopeLine, rowParts } from "./bulk-io/envelope-line.js";
