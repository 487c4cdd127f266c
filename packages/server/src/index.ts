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

// --- accounts ---
export {
  type PasswordHasher,
  type ScryptCost,
} from "./auth/passwords.js";
export {
  type NewUser,
  type Role,
  type UserChange,
  type LoginOptions,
} from "./auth/accounts.js";
;

// --- keys derived from the secret: one per purpose, webhook keys per flock ---
export { /** @public documented in docs/v2.md */ cardKey, formatWebhookKey, webhookKey } from "./config/keys.js";

// --- derived reads: signed member cards, avatars ---
export { /** @public documented in docs/v2.md */ cardSignature, cardUrl, type SignatureCheck } from "./derived/card-signature.js";
export { /** @public documented in docs/v2.md */ memberCardUrl, type MemberCardUrlOptions } from "./derived/card-url.js";
export { type CardInput } from "./derived/card.js";
export { type AvatarFormat, type AvatarImage, type AvatarSubject } from "./derived/avatar.js";

// --- attribution, throttling, login protection, self-service accounts ---
export { type ApplicationHeader } from "./protection/application-header.js";
export { type ApplicationCounts, type ApplicationStats } from "./protection/application-counts.js";
export { type LoginGuard, type LoginGuardOptions } from "./protection/login-guard.js";
;

// --- running a server ---
export { startServer, type ServerOptions, type RunningServer } from "./runtime.js";
export { /** @public documented in docs/architecture.md */ resolveSettings, type Settings, type SettingsInput } from "./settings.js";

// OpenAPI document and the manual clock (emulator mode)
export { serverOpenApiDocument } from "./openapi/server-document.js";
export { /** @public documented in docs/client.md */ COMPONENT_SCHEMAS, type ComponentName } from "./openapi/schemas.js";
export { /** @public documented in docs/client.md */ documented, type RouteDoc, type RouteAuth } from "./openapi/describe.js";
export { createManualClock, type ManualClock, type ClockSetting } from "./clock/manual-clock.js";
export { type AdvanceDeps, type AdvanceReport, type ClockAdvancer } from "./clock/advance.js";
export type { Worker, WorkerContext, WorkerFactory, WorkerGroup } from "./runtime.js";

// --- the config file ---
export { parseConfig } from "./config.js";
export type { AppliedConfig, AuthConfig, Config, FlockConfig, MailConfig, SchedulerConfig, TemplateConfig, ThrottleConfig, UserConfig, WebhooksConfig } from "./config.js";

// --- actions, the outbox worker, triggers ---
export { type ActionRegistry } from "./actions/registry.js";
export { type DefaultActionOptions } from "./actions/defaults.js";
export { type WebhookActionOptions } from "./actions/webhook.js";
export { type WebhookFetchOptions } from "./actions/webhook-fetch.js";
export { type GuardedLookupOptions, type Resolver } from "./actions/guarded-lookup.js";
export {
  webhookHeaders,
  type WebhookHeaders,
} from "./actions/signature.js";
export {
  type OutboxWorkerOptions,
  type OutboxRunner,
  type OutboxRunSummary,
} from "./workers/outbox.js";
export { type AttemptDeps, type AttemptResult } from "./workers/outbox-attempt.js";
export { type TaskWorkerOptions } from "./workers/tasks.js";
;

// --- bulk import and export ---
export { /** @public documented in README.md */ importRecords, type ImportOptions, type ImportProgress, type ImportReport } from "./bulk-io/import-records.js";
export { /** @public documented in README.md */ exportRecords, type ExportOptions } from "./bulk-io/export-records.js";
export { /** @public documented in README.md */ readNdjson, /** @public documented in README.md */ readCsv, type ImportRow, type ImportFormat } from "./bulk-io/read-rows.js";
