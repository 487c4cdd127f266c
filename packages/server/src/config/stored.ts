/**
 * @module config/stored
 * The applied configuration as the database keeps it, so that a start without `--config`
 * runs with it and every process on the database runs with one configuration. Two settings
 * (no table of its own, no migration): `config.applied` holds the document (as written,
 * without the root secret, which is the `secret` setting already, and without users'
 * passwords, which live hashed with the users) with its revision; `config.revision` holds
 * that revision's token alone, small, for the processes to poll cheaply. Applying writes the
 * document first and the token last, so a process that sees a token it has not loaded
 * reads a document at least as new; tokens are unique per apply, so two applies at once
 * never look like one.
 */
import { randomBytes } from "node:crypto";
import { redactUrl, type Clock, type Storage } from "@records-service/core";
import { ConfigError } from "./issues.js";
import { configDocument, parseConfig } from "../config.js";
import type { Config } from "./schema.js";

/** The setting holding the applied document (JSON of `StoredConfig`). */
export const APPLIED_CONFIG_SETTING = "config.applied";
/** The setting holding the applied revision's token (what processes poll). */
const CONFIG_REVISION_SETTING = "config.revision";

/** What the database keeps of an applied configuration. */
export interface StoredConfig {
  /** 1 for the first configuration applied to the database, then one more per change. */
  revision: number;
  /** `revision.random`: the `config.revision` setting's value while this is the one in force. */
  token: string;
  /** When it was applied (ISO 8601, UTC). */
  appliedAt: string;
  /** Where it came from: the file as named on the command line, or `library`. */
  source: string;
  /** The document without `secret` and without users' passwords. */
  document: Record<string, unknown>;
  /** Whether the document named a `secret` (held in the `secret` setting). */
  secretConfigured: boolean;
}

/** What `recordAppliedConfig` did. */
export interface RecordedConfig {
  stored: StoredConfig;
  /** False when the same document (and secret) was in force already: nothing was written. */
  changed: boolean;
}

/**
 * Records `config` (parsed by `parseConfig`) as the applied configuration. Call it after
 * `applyConfig` has written the secret, flocks and users. `secretChanged`: applying it
 * replaced the stored secret (the running processes must reload to sign with the new one).
 * A config not made by `parseConfig` has no document and is not recorded (undefined).
 *
 * @example
 * const { stored, changed } = await recordAppliedConfig(storage, clock, config, { source: "records.json", secretChanged: false });
 */
export async function recordAppliedConfig(
  storage: Storage,
  clock: Clock,
  config: Config,
  opts: { source: string; secretChanged: boolean },
): Promise<RecordedConfig | undefined> {
  const document = configDocument(config);
  if (!document) return undefined;
  const kept = _withoutSecrets(document);
  const secretConfigured = document.secret !== undefined;
  const current = await readAppliedConfig(storage);
  if (current && !opts.secretChanged && current.secretConfigured === secretConfigured && _same(current.document, kept)) {
    return { stored: current, changed: false };
  }
  const revision = (current?.revision ?? 0) + 1;
  const stored: StoredConfig = {
    revision,
    token: `${revision}.${randomBytes(8).toString("hex")}`,
    appliedAt: clock.now().toISOString(),
    source: opts.source,
    document: kept,
    secretConfigured,
  };
  await storage.putSetting(APPLIED_CONFIG_SETTING, JSON.stringify(stored));
  await storage.putSetting(CONFIG_REVISION_SETTING, stored.token);
  return { stored, changed: true };
}

/**
 * The applied configuration as stored, or undefined when none was ever applied. Throws
 * `ConfigError` when the setting is not what this version writes.
 *
 * @example
 * (await readAppliedConfig(storage))?.revision // 3
 */
export async function readAppliedConfig(storage: Storage): Promise<StoredConfig | undefined> {
  const text = await storage.getSetting(APPLIED_CONFIG_SETTING);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config: the applied configuration in the database is not valid JSON (${(e as Error).message}); apply one again with records-service config apply FILE`);
  }
  if (!_isStored(value)) throw new ConfigError("config: the applied configuration in the database is not in the form this version writes; apply one again with records-service config apply FILE");
  return value;
}

/**
 * The token of the applied revision (what processes poll), or undefined when none was applied.
 *
 * @example
 * await appliedConfigToken(storage) // "3.9f2c0e1ab4d7c655"
 */
export function appliedConfigToken(storage: Storage): Promise<string | undefined> {
  return storage.getSetting(CONFIG_REVISION_SETTING);
}

/**
 * The stored configuration parsed as a config file is (users aside: they are in the
 * database already, with their passwords hashed; the secret too). Throws `ConfigError`
 * naming the key when it no longer validates (e.g. written by a newer version).
 *
 * @example
 * const config = storedConfigToConfig(await readAppliedConfig(storage));
 */
export function storedConfigToConfig(stored: StoredConfig): Config {
  try {
    return parseConfig({ ...stored.document, users: [] });
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${e.message} (in the configuration applied ${stored.appliedAt}, revision ${stored.revision})`);
    throw e;
  }
}

/**
 * The stored configuration as `config show` prints it: its revision, time and source, and
 * the document with every secret replaced by `[redacted]`: the root secret, users'
 * passwords, credentials in the SMTP URL, the metrics token, and credentials and query strings
 * in webhook URLs.
 *
 * @example
 * JSON.stringify(redactedConfig(stored), null, 2)
 */
export function redactedConfig(stored: StoredConfig): Record<string, unknown> {
  const doc: Record<string, unknown> = { ...stored.document };
  const config: Record<string, unknown> = stored.secretConfigured ? { secret: REDACTED, ...doc } : doc;
  if (Array.isArray(doc.users)) config.users = doc.users.map((u) => (_isObject(u) ? { ...u, password: REDACTED } : u));
  if (_isObject(doc.mail) && typeof doc.mail.smtp === "string") config.mail = { ...doc.mail, smtp: _redactUserinfo(doc.mail.smtp) };
  if (_isObject(doc.metrics) && typeof doc.metrics.token === "string") config.metrics = { ...doc.metrics, token: REDACTED };
  if (Array.isArray(doc.triggers)) {
    config.triggers = doc.triggers.map((t) => (_isObject(t) && typeof t.url === "string" && t.url !== "" ? { ...t, url: redactUrl(t.url) } : t));
  }
  return { revision: stored.revision, applied_at: stored.appliedAt, source: stored.source, config };
}

/** What secrets are replaced with in `config show`. */
export const REDACTED = "[redacted]";

// --- internal ---

function _withoutSecrets(document: Record<string, unknown>): Record<string, unknown> {
  const { secret: _secret, ...rest } = document;
  if (Array.isArray(rest.users)) {
    rest.users = rest.users.map((u) => {
      if (!_isObject(u)) return u;
      const { password: _password, ...user } = u;
      return user;
    });
  }
  return rest;
}

function _same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function _isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function _isStored(x: unknown): x is StoredConfig {
  return (
    _isObject(x) &&
    typeof x.revision === "number" &&
    typeof x.token === "string" &&
    typeof x.appliedAt === "string" &&
    typeof x.source === "string" &&
    _isObject(x.document) &&
    typeof x.secretConfigured === "boolean"
  );
}

/** `smtp://user:pw@host:25` → `smtp://[redacted]@host:25`; text with no userinfo as it is. */
function _redactUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, `$1${REDACTED}@`);
}
