/**
 * @module config/schema
 * The valibot schema of the config file (`serve --config FILE`), and the one place every
 * default of a setting lives: the file's (`CONFIG_DEFAULTS`), the tunings an embedder or a
 * test may pass but no file names (`TUNING_DEFAULTS`), and the command line's
 * (`FLAG_DEFAULTS`). Every object is strict, so a misspelt key is refused rather than
 * ignored; every section is optional and gets its defaults here. `settings.ts` turns a parsed
 * config (or a part of one) into the one resolved `Settings` the app and the workers share.
 */
import {
  FIELD_NAME_RE,
  INDEX_DEMAND_DEFAULTS,
  RESERVED_TYPE_NAMES,
  RESOURCE_TYPE_RE,
  TASK_CHUNK_SIZE,
  TriggerEntrySchema,
  type TriggerConfig,
} from "@records-service/core";
import { Cron } from "croner";
import { Eta } from "eta";
import * as v from "valibot";
import { CLOCK_SETTING_FORMAT, parseClockSetting } from "../clock/manual-clock.js";
import { isTaxYearStart } from "../gateway/giving/tax-year.js";
import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH, ROLES } from "../auth/accounts.js";

/** Flock identifiers: lower-case letters, digits, `_` and `-`, 1 to 63 characters, not starting with `_`/`-`. */
export const FLOCK_ID_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * Identifiers that would shadow a fixed path (`/api/v1/ping/`, `/api/v1/auth/`,
 * `/api/v2/selfservice/...`), so a flock of that name could never be reached.
 */
export const RESERVED_FLOCK_IDS: readonly string[] = ["auth", "health", "ping", "selfservice"];

/** Shortest accepted `secret`: HMAC keys shorter than this are guessable. */
const MIN_SECRET_LENGTH = 16;

/** Defaults of the config file's sections, in one place (documented in README.md's table; config/defaults-doc.test checks it). */
export const CONFIG_DEFAULTS = {
  /** Every minute, at second 0 (croner syntax, seconds field first). */
  scheduler: { cron: "0 * * * * *" },
  /** First retry after a minute, doubling, for 7 days (spec: retried for about 7 days). */
  webhooks: { allowInsecureUrls: false, allowPrivateTargets: false, firstRetryDelayMs: 60_000, retryWindowHours: 168 },
  throttle: { unattributedPerMinute: 60 },
  /** PostgreSQL connections (ignored for a SQLite file): pool size, statement timeout (0 = none). */
  database: { poolSize: 10, statementTimeoutMs: 30_000 },
  /** Core API keys last 30 days; self-service sessions a fixed 24 hours. */
  auth: { keyTtlHours: 720 },
  /**
   * How long a process's hold on shared work (an outbox job's claim, the scheduler's run, a
   * task) lasts without renewal: a killed process's work is taken over after it.
   */
  workers: { leaseMs: 60_000 },
  /**
   * The change feed keeps a week of changes (older positions answer 410); at most 8 open
   * feeds per API key and 64 per flock, across processes (429 past them); 256 KiB of
   * unsent events per feed before a reader that does not keep up is cut off.
   */
  changes: { retentionDays: 7, maxFeedsPerKey: 8, maxFeedsPerFlock: 64, maxBufferBytes: 256 * 1024 },
  /** `GET /metrics` is off unless enabled, and then needs a token or a port of its own. */
  metrics: { enabled: false },
  /** Scheduled backups (SQLite files; only with a `backup` section): daily at 03:00 UTC, the newest 7 kept. */
  backup: { cron: "0 0 3 * * *", keep: 7 },
  /** The system clock (`manual[=ISO]`: the emulator's). */
  clock: "system",
  /**
   * What an `invoicing[]` entry leaves out (none for a flock: all of these): invoices in
   * pounds on the A4 template, giving statements over the UK's tax year (from 6 April).
   */
  invoicing: { default_currency: "gbp", template: "invoice-a4", tax_year_start: "04-06" },
  /**
   * The value index (issue 24): a field earns its index after 20 lists that had to scan a
   * collection of 5,000 or more records for it; `fields` declares indexes in every flock.
   */
  indexes: { earnAfter: INDEX_DEMAND_DEFAULTS.earnAfter, minRecords: INDEX_DEMAND_DEFAULTS.minRecords },
} as const;

/**
 * Defaults of the settings no config file names: what an embedder (`createApp`,
 * `startServer`) or a test may pass to tune the service (see settings.ts `SettingsInput`).
 */
export const TUNING_DEFAULTS = {
  /** Largest accepted request body, files included (413 past it). */
  http: { bodyLimitBytes: 10 * 1024 * 1024 },
  /**
   * The login guard (protection/login-guard), counted in the database: 5 failures of one
   * account from one address within 15 minutes lock that pair for a minute, doubling with
   * each further lockout up to 15 minutes; 20 of one account from any address pause it for
   * a fixed 30 s; 30 from one address over every account lock the address like a pair. An
   * address the account logged in from within 30 days (the 10 most recent) is spared the
   * account's and the address's locks.
   */
  loginGuard: {
    maxFailures: 5,
    maxFailuresPerUser: 20,
    maxFailuresPerAddress: 30,
    userLockMs: 30_000,
    knownAddressMs: 30 * 24 * 60 * 60_000,
    maxKnownAddresses: 10,
    windowMs: 15 * 60_000,
    baseLockMs: 60_000,
    maxLockMs: 15 * 60_000,
  },
  /**
   * A change feed stream's heartbeat (every 15 s; its place under the caps is renewed with
   * it) and the grace a client gets to drain a full buffer (30 s) before it is cut off.
   */
  changeStreams: { heartbeatMs: 15_000, stallMs: 30_000 },
  /**
   * The outbox worker: due jobs (retries) looked for every second besides the nudge after
   * each commit, 50 claimed per step, 8 attempts at once, 5 s for attempts in flight at stop.
   */
  outbox: { pollMs: 1000, batchSize: 50, concurrency: 8, stopGraceMs: 5000 },
  /**
   * The task worker: queued tasks looked for every 500 ms while idle, records per chunk (one
   * transaction each), chunks that may fail unexpectedly before the task is marked failed.
   */
  tasks: { pollMs: 500, chunkSize: TASK_CHUNK_SIZE, maxFailures: 3 },
  /** How often a running process looks for a configuration another applied (ms). */
  configCheckMs: 2000,
  /**
   * `serve --processes N` restarting a crashed process (runtime/restart-backoff): at once
   * after one that ran 10 s; otherwise from 250 ms, doubling up to 30 s.
   */
  restarts: { steadyMs: 10_000, firstMs: 250, maxMs: 30_000 },
};

/** Defaults of the command line's flags (cli/args), for `serve` and the other commands. */
export const FLAG_DEFAULTS = {
  /** `--db`, when `DATABASE_URL` is not set either. */
  db: "./data/records.db",
  /** `--host` / `HOST`. */
  host: "127.0.0.1",
  /** `--port` / `PORT`. */
  port: 8080,
  /** `serve --processes`: one process. */
  processes: 1,
  /** `card-url --base-url` and `invoice-url --base-url`: where the links point. */
  baseUrl: "http://127.0.0.1:8080",
  /**
   * `import --batch`: rows per transaction. 5,000 persons share one commit's index pages:
   * 3,200 persons/s into an empty file against 1,900 with 1,000 (docs/performance.md); the
   * write lock is held about a second per batch.
   */
  importBatch: 5000,
  /** `copy --batch`: records per PostgreSQL transaction. */
  copyBatch: 1000,
  /** `jobs --limit`: jobs listed. */
  jobsLimit: 50,
} as const;

/** Shortest `metrics.token`: a bearer token shorter than this is guessable. */
const MIN_METRICS_TOKEN_LENGTH = 16;

/** Most backups `backup.keep` (and `records-service backup --keep`) keeps. */
export const MAX_BACKUPS_KEPT = 10_000;

/** Shortest and longest `workers.leaseMs`: renewals run every third of it. */
const LEASE_MS_RANGE = { min: 300, max: 3_600_000 } as const;

/** Longest `changes.retentionDays`: ten years. */
const MAX_RETENTION_DAYS = 3650;

/** Most open change feeds `changes.maxFeedsPerKey` and `maxFeedsPerFlock` may allow. */
const MAX_FEEDS_CAP = 100_000;

/** Smallest and largest `changes.maxBufferBytes`: 4 KiB to 16 MiB. */
const FEED_BUFFER_RANGE = { min: 4096, max: 16 * 1024 * 1024 } as const;

/** Longest `auth.keyTtlHours`: ten years. */
const MAX_KEY_TTL_HOURS = 87_600;

const flockId = v.pipe(
  v.string(),
  v.regex(FLOCK_ID_RE, "must be a flock identifier: 1 to 63 of a-z 0-9 _ -, starting with a letter or digit"),
  v.check((id) => !RESERVED_FLOCK_IDS.includes(id), `is reserved for a fixed path (${RESERVED_FLOCK_IDS.join(", ")})`),
);

const nonEmpty = v.pipe(v.string(), v.nonEmpty("must be a non-empty string"));

const flockSchema = v.strictObject({
  identifier: flockId,
  name: v.optional(nonEmpty),
});

const userSchema = v.strictObject({
  username: v.pipe(
    nonEmpty,
    v.maxLength(MAX_USERNAME_LENGTH, `must be at most ${MAX_USERNAME_LENGTH} characters`),
    v.regex(/^[^\s\p{Cc}]+$/u, "must not contain spaces or control characters"),
  ),
  password: v.pipe(
    v.string(),
    v.minLength(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters (the minimum password length)`),
    v.maxLength(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  ),
  flocks: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.check((f) => f === "*" || FLOCK_ID_RE.test(f), 'must be a flock identifier (a-z 0-9 _ -) or "*" for every flock'),
      ),
    ),
    v.minLength(1, "must name at least one flock"),
  ),
  role: v.optional(v.picklist(ROLES, `must be ${ROLES.map((r) => `"${r}"`).join(" or ")}`), "core"),
});

const etaSource = v.rawCheck<string>(({ dataset, addIssue }) => {
  const problem = dataset.typed ? _etaProblem(dataset.value) : undefined;
  if (problem) addIssue({ message: `is not a valid Eta template: ${problem}` });
});

const templateSchema = v.strictObject({
  flock: flockId,
  name: nonEmpty,
  subject: v.pipe(v.string(), etaSource),
  body: v.pipe(v.string(), etaSource),
});

const positiveInt = v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1, "must be at least 1"));

const schedulerSchema = v.strictObject({
  cron: v.optional(v.pipe(v.string(), v.check(_isCron, "must be a croner pattern such as \"0 * * * * *\"")), CONFIG_DEFAULTS.scheduler.cron),
});

const webhooksSchema = v.strictObject({
  allowInsecureUrls: v.optional(v.boolean(), CONFIG_DEFAULTS.webhooks.allowInsecureUrls),
  allowPrivateTargets: v.optional(v.boolean(), CONFIG_DEFAULTS.webhooks.allowPrivateTargets),
  firstRetryDelayMs: v.optional(positiveInt, CONFIG_DEFAULTS.webhooks.firstRetryDelayMs),
  retryWindowHours: v.optional(
    v.pipe(v.number(), v.minValue(0, "must not be negative"), v.finite("must be a finite number")),
    CONFIG_DEFAULTS.webhooks.retryWindowHours,
  ),
});

const throttleSchema = v.strictObject({
  unattributedPerMinute: v.optional(positiveInt, CONFIG_DEFAULTS.throttle.unattributedPerMinute),
});

const databaseSchema = v.strictObject({
  poolSize: v.optional(v.pipe(positiveInt, v.maxValue(1000, "must be at most 1000")), CONFIG_DEFAULTS.database.poolSize),
  statementTimeoutMs: v.optional(
    v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must not be negative (0 = no timeout)")),
    CONFIG_DEFAULTS.database.statementTimeoutMs,
  ),
});

const authSchema = v.strictObject({
  keyTtlHours: v.optional(
    v.pipe(positiveInt, v.maxValue(MAX_KEY_TTL_HOURS, `must be at most ${MAX_KEY_TTL_HOURS} (ten years)`)),
    CONFIG_DEFAULTS.auth.keyTtlHours,
  ),
});

const workersSchema = v.strictObject({
  leaseMs: v.optional(
    v.pipe(
      v.number(),
      v.integer("must be an integer"),
      v.minValue(LEASE_MS_RANGE.min, `must be at least ${LEASE_MS_RANGE.min} (milliseconds)`),
      v.maxValue(LEASE_MS_RANGE.max, `must be at most ${LEASE_MS_RANGE.max} (an hour)`),
    ),
    CONFIG_DEFAULTS.workers.leaseMs,
  ),
});

/** `changes`: how long the change feed keeps its rows, and the limits on open feeds. */
const changesSchema = v.strictObject({
  retentionDays: v.optional(
    v.pipe(
      v.number(),
      v.finite("must be a finite number"),
      v.minValue(0.001, "must be more than 0 (days; fractions allowed)"),
      v.maxValue(MAX_RETENTION_DAYS, `must be at most ${MAX_RETENTION_DAYS} (ten years)`),
    ),
    CONFIG_DEFAULTS.changes.retentionDays,
  ),
  maxFeedsPerKey: v.optional(v.pipe(positiveInt, v.maxValue(MAX_FEEDS_CAP, `must be at most ${MAX_FEEDS_CAP}`)), CONFIG_DEFAULTS.changes.maxFeedsPerKey),
  maxFeedsPerFlock: v.optional(v.pipe(positiveInt, v.maxValue(MAX_FEEDS_CAP, `must be at most ${MAX_FEEDS_CAP}`)), CONFIG_DEFAULTS.changes.maxFeedsPerFlock),
  maxBufferBytes: v.optional(
    v.pipe(
      positiveInt,
      v.minValue(FEED_BUFFER_RANGE.min, `must be at least ${FEED_BUFFER_RANGE.min} (bytes)`),
      v.maxValue(FEED_BUFFER_RANGE.max, `must be at most ${FEED_BUFFER_RANGE.max} (16 MiB)`),
    ),
    CONFIG_DEFAULTS.changes.maxBufferBytes,
  ),
});

/**
 * `metrics`: Prometheus text at `GET /metrics`. Enabled, it needs a bearer `token` (served on
 * the API's port) or a `port` of its own (bound to 127.0.0.1; with a token too, it asks for it there).
 */
const metricsSchema = v.pipe(
  v.strictObject({
    enabled: v.optional(v.boolean(), CONFIG_DEFAULTS.metrics.enabled),
    token: v.optional(
      v.pipe(
        v.string(),
        v.minLength(MIN_METRICS_TOKEN_LENGTH, `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`),
        v.regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces (it is sent as Authorization: Bearer <token>)"),
      ),
    ),
    /** 0 picks a free port (the start-up line names it). */
    port: v.optional(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must be 0 to 65535 (0: a free port)"), v.maxValue(65535, "must be 0 to 65535 (0: a free port)"))),
  }),
  v.forward(
    v.check((m) => !m.enabled || m.token !== undefined || m.port !== undefined, "needs metrics.token (a bearer token) or metrics.port (a port of its own on 127.0.0.1): metrics are never open on the API's port"),
    ["enabled"],
  ),
);
/** `backup`: a verified copy of the SQLite file on a schedule, one process at a time (workers/backup). */
const backupSchema = v.strictObject({
  cron: v.optional(v.pipe(v.string(), v.check(_isCron, "must be a croner pattern such as \"0 0 3 * * *\" (seconds first, UTC)")), CONFIG_DEFAULTS.backup.cron),
  dir: v.pipe(v.string(), v.regex(/\S/, "must be the folder the backups go to")),
  keep: v.optional(
    v.pipe(positiveInt, v.maxValue(MAX_BACKUPS_KEPT, `must be at most ${MAX_BACKUPS_KEPT}`)),
    CONFIG_DEFAULTS.backup.keep,
  ),
});

const mailSchema = v.strictObject({
  smtp: v.pipe(v.string(), v.regex(/^smtps?:\/\/[^\s/]+/, "must be an smtp:// or smtps:// URL")),
  from: v.pipe(v.string(), v.email("must be an email address")),
});

/**
 * A flock's own resource types, served beside the defaults in that flock only. A default
 * type named here is accepted and ignored (config.ts `flockResourceTypes`), so a config
 * written before a type became a default (`form`, issue 21) keeps starting.
 */
const resourceTypesSchema = v.strictObject({
  flock: flockId,
  types: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.regex(RESOURCE_TYPE_RE, "must be a resource type name: a-z 0-9 _, starting with a letter, at most 64 characters"),
        v.check((t) => !RESERVED_TYPE_NAMES.includes(t), `is reserved for a path of its own (${RESERVED_TYPE_NAMES.join(", ")})`),
      ),
    ),
    v.minLength(1, "must name at least one type"),
  ),
});

/** The value index: when scans earn an index, and the fields declared in every flock, by type. */
const indexesSchema = v.strictObject({
  earnAfter: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(1, "must be at least 1")), CONFIG_DEFAULTS.indexes.earnAfter),
  minRecords: v.optional(v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(0, "must be 0 or more")), CONFIG_DEFAULTS.indexes.minRecords),
  fields: v.optional(
    v.record(
      v.pipe(v.string(), v.regex(RESOURCE_TYPE_RE, "must be a resource type name: a-z 0-9 _, starting with a letter, at most 64 characters")),
      v.array(v.pipe(v.string(), v.regex(FIELD_NAME_RE, "must be a data field name: letters, digits and _, not starting with a digit"))),
    ),
    {},
  ),
});

/** A flock's invoicing settings: the `config` object of its invoices (spec v2-gateway 2.2). */
const invoicingSchema = v.strictObject({
  flock: flockId,
  address: v.optional(v.array(v.string())),
  postal_code: v.optional(v.string()),
  contact_details: v.optional(v.string()),
  contact_email: v.optional(v.pipe(v.string(), v.email("must be an email address"))),
  contact_phone: v.optional(v.string()),
  logo_url: v.optional(v.pipe(v.string(), v.url("must be a URL"))),
  payment_details: v.optional(v.string()),
  payment_detail_notes: v.optional(v.string()),
  purchase_order_string: v.optional(v.string()),
  tax_name: v.optional(v.string()),
  vat_number: v.optional(v.string()),
  default_currency: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{3}$/, "must be a lower-case ISO 4217 code (gbp, eur)"))),
  template: v.optional(v.string()),
  /** The first day of the giving statements' tax year, `MM-DD` (default `04-06`, the UK's). */
  tax_year_start: v.optional(v.pipe(v.string(), v.check(isTaxYearStart, "must be MM-DD, a day every year has (04-06)"))),
});

/** The whole config file. */
export const configSchema = v.strictObject({
  secret: v.optional(
    v.pipe(v.string(), v.minLength(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`)),
  ),
  flocks: v.optional(v.array(flockSchema), []),
  users: v.optional(v.array(userSchema), []),
  templates: v.optional(v.array(templateSchema), []),
  /** Shape only; the trigger rules are core's `validateTriggers` (see config.ts). */
  triggers: v.optional(v.array(TriggerEntrySchema), []),
  resourceTypes: v.optional(v.array(resourceTypesSchema), []),
  scheduler: v.optional(schedulerSchema, {}),
  webhooks: v.optional(webhooksSchema, {}),
  throttle: v.optional(throttleSchema, {}),
  database: v.optional(databaseSchema, {}),
  auth: v.optional(authSchema, {}),
  workers: v.optional(workersSchema, {}),
  changes: v.optional(changesSchema, {}),
  metrics: v.optional(metricsSchema, {}),
  mail: v.optional(mailSchema),
  backup: v.optional(backupSchema),
  indexes: v.optional(indexesSchema, {}),
  /** Per flock: what its invoices say about the issuer (address, contact, payment details). */
  invoicing: v.optional(v.array(invoicingSchema), []),
  /** `system` (default), or `manual[=ISO]`: the emulator's clock (see clock/manual-clock); `serve --clock` wins. */
  clock: v.optional(v.pipe(v.string(), v.check((s) => !("error" in parseClockSetting(s)), `must be ${CLOCK_SETTING_FORMAT}`)), CONFIG_DEFAULTS.clock),
});

/**
 * The parsed config, with every default filled in. `triggers` are core's validated
 * triggers (event and variation resolved); `warnings` name deprecated triggers and actions.
 */
export type Config = Omit<v.InferOutput<typeof configSchema>, "triggers"> & {
  triggers: TriggerConfig[];
  warnings: string[];
};
export type FlockConfig = Config["flocks"][number];
export type UserConfig = Config["users"][number];
export type TemplateConfig = Config["templates"][number];
export type SchedulerConfig = Config["scheduler"];
export type WebhooksConfig = Config["webhooks"];
export type ThrottleConfig = Config["throttle"];
export type DatabaseConfig = Config["database"];
export type AuthConfig = Config["auth"];
export type WorkersConfig = Config["workers"];
export type ChangesConfig = Config["changes"];
export type MetricsConfig = Config["metrics"];
export type MailConfig = NonNullable<Config["mail"]>;
export type BackupConfig = NonNullable<Config["backup"]>;
export type InvoicingConfig = Config["invoicing"][number];
export type IndexesConfig = Config["indexes"];

// --- internal ---

const _eta = new Eta();

/** The first line of Eta's compile error, or undefined when the template compiles. */
function _etaProblem(source: string): string | undefined {
  try {
    _eta.compile(source);
    return undefined;
  } catch (e) {
    return String(e instanceof Error ? e.message : e).split("\n")[0]!.trim();
  }
}

function _isCron(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}
