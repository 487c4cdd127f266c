/**
 * @module settings
 * The one resolved settings object of a running service: the config file's settings
 * sections (throttle, auth, webhooks, scheduler, workers, changes, metrics, mail, backup,
 * invoicing, database, clock, indexes) and the tunings no file names (body limit, login guard, change
 * streams, outbox and task workers, config checks, process restarts), every value filled. `startServer` builds
 * one per configuration with `settingsOf(config)` and hands that same object to `createApp`
 * and to the workers; an embedder or a test gives `createApp` some sections and
 * `resolveSettings` fills the rest. The defaults themselves live only in config/schema.ts.
 */
import { CONFIG_DEFAULTS, TUNING_DEFAULTS, type Config } from "./config/schema.js";

/** The settings sections of the config file, as `parseConfig` resolves them. */
type FileSettings = Pick<
  Config,
  "scheduler" | "webhooks" | "throttle" | "database" | "auth" | "workers" | "changes" | "metrics" | "mail" | "backup" | "invoicing" | "clock" | "indexes"
>;

/** The tunings (config/schema `TUNING_DEFAULTS`, where each is documented). */
type Tunings = typeof TUNING_DEFAULTS;

/** Every setting, resolved: what the app and the workers read. */
export type Settings = FileSettings & Tunings;

/**
 * Some settings: any section, and within a section any key (the rest from the defaults).
 * `mail` and `backup` are whole when given (without them: no email sent, no backups).
 */
export type SettingsInput = { [K in _Whole]?: Settings[K] } & { [K in Exclude<keyof Settings, _Whole>]?: Partial<Settings[K]> };

/** The settings given whole, not key by key. */
type _Whole = "mail" | "backup" | "invoicing" | "clock" | "configCheckMs";

/**
 * `input` with every missing setting taken from config/schema's defaults. A `Settings`
 * this function (or `settingsOf`) made is returned as it is, so the app and the workers
 * given one share the very object. Values are not checked here: the config file's are
 * checked by `parseConfig`; an embedder's are the embedder's (tests shrink limits below
 * what a file may say).
 *
 * @example
 * resolveSettings({ throttle: { unattributedPerMinute: 3 } }).auth.keyTtlHours // 720
 */
export function resolveSettings(input: SettingsInput | Settings = {}): Settings {
  if (_resolved.has(input as Settings)) return input as Settings;
  const settings: Settings = {
    scheduler: { ...CONFIG_DEFAULTS.scheduler, ...input.scheduler },
    webhooks: { ...CONFIG_DEFAULTS.webhooks, ...input.webhooks },
    throttle: { ...CONFIG_DEFAULTS.throttle, ...input.throttle },
    database: { ...CONFIG_DEFAULTS.database, ...input.database },
    auth: { ...CONFIG_DEFAULTS.auth, ...input.auth },
    workers: { ...CONFIG_DEFAULTS.workers, ...input.workers },
    changes: { ...CONFIG_DEFAULTS.changes, ...input.changes },
    metrics: { ...CONFIG_DEFAULTS.metrics, ...input.metrics },
    ...(input.mail ? { mail: input.mail } : {}),
    ...(input.backup ? { backup: { ...CONFIG_DEFAULTS.backup, ...input.backup } } : {}),
    invoicing: input.invoicing ?? [],
    clock: input.clock ?? CONFIG_DEFAULTS.clock,
    indexes: { ...CONFIG_DEFAULTS.indexes, fields: {}, ...input.indexes },
    http: { ...TUNING_DEFAULTS.http, ...input.http },
    loginGuard: { ...TUNING_DEFAULTS.loginGuard, ...input.loginGuard },
    changeStreams: { ...TUNING_DEFAULTS.changeStreams, ...input.changeStreams },
    outbox: { ...TUNING_DEFAULTS.outbox, ...input.outbox },
    tasks: { ...TUNING_DEFAULTS.tasks, ...input.tasks },
    configCheckMs: input.configCheckMs ?? TUNING_DEFAULTS.configCheckMs,
    restarts: { ...TUNING_DEFAULTS.restarts, ...input.restarts },
  };
  _resolved.add(settings);
  return settings;
}

/**
 * The settings of a parsed config (its defaults already filled by the schema), with the
 * tunings `tunings` names (the rest defaulted): what `startServer` builds once per
 * configuration and passes to the app and the workers alike.
 *
 * @example
 * settingsOf(parseConfig({ throttle: { unattributedPerMinute: 3 } })).throttle.unattributedPerMinute // 3
 */
export function settingsOf(config: Config, tunings: SettingsInput = {}): Settings {
  const { scheduler, webhooks, throttle, database, auth, workers, changes, metrics, mail, backup, invoicing, clock, indexes } = config;
  return resolveSettings({
    ...tunings,
    scheduler,
    webhooks,
    throttle,
    database,
    auth,
    workers,
    changes,
    metrics,
    ...(mail ? { mail } : {}),
    ...(backup ? { backup } : {}),
    invoicing,
    clock,
    indexes,
  });
}

// --- internal ---

/** The objects `resolveSettings` made (complete by construction). */
const _resolved = new WeakSet<Settings>();
