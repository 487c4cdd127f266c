/**
 * @module config/references
 * The rules that span several keys of the config file: no duplicates, triggers that keep
 * core's trigger rules and name templates that exist, declared indexes of types some flock
 * serves, and flocks that exist. Each failure is a `ConfigError` naming the key.
 */
import { DEFAULT_RESOURCE_TYPES, isRecordsError, validateTriggers } from "@records-service/core";
import { normalizeUsername } from "../auth/accounts.js";
import { ConfigError, keyPath } from "./issues.js";
import type { Config } from "./schema.js";

/** The config as the schema parsed it, before the trigger rules ran. */
type Parsed = Omit<Config, "triggers" | "warnings"> & { triggers: unknown[] };

/**
 * Checks everything that needs no database and resolves the triggers (core's
 * `validateTriggers`: known trigger names and actions, one action of each type per
 * trigger, webhook URL rules). Throws `ConfigError`.
 */
export function resolveConsistency(parsed: Parsed): Config {
  _unique(parsed.flocks, (f) => f.identifier, (i) => ["flocks", i, "identifier"]);
  _unique(parsed.users, (u) => normalizeUsername(u.username), (i) => ["users", i, "username"]);
  _unique(parsed.templates, (t) => `${t.flock}/${t.name}`, (i) => ["templates", i, "name"]);
  _unique(parsed.resourceTypes, (r) => r.flock, (i) => ["resourceTypes", i, "flock"]);
  parsed.resourceTypes.forEach((r, i) => _unique(r.types.map((t) => ({ t })), (x) => x.t, (j) => ["resourceTypes", i, "types", j]));
  _unique(parsed.invoicing, (r) => r.flock, (i) => ["invoicing", i, "flock"]);
  _checkIndexTypes(parsed);
  const templates = new Set(parsed.templates.map((t) => `${t.flock}/${t.name}`));
  try {
    const { triggers, warnings } = validateTriggers(parsed.triggers, {
      allowInsecureUrls: parsed.webhooks.allowInsecureUrls,
      allowPrivateTargets: parsed.webhooks.allowPrivateTargets,
      templateExists: (flock, name) => templates.has(`${flock}/${name}`),
    });
    return { ...parsed, triggers, warnings: warnings.map((w) => `config: ${w}`) };
  } catch (e) {
    // The detail names each entry as `triggers[i] (<trigger>, <action>): <problem>`.
    if (isRecordsError(e)) throw new ConfigError(`config: ${e.detail}`);
    throw e;
  }
}

/**
 * Checks that every flock the config refers to exists, in the config or in `existing`
 * (the database). Throws `ConfigError`.
 */
export function checkFlocksExist(config: Config, existing: ReadonlySet<string>): void {
  const known = new Set([...existing, ...config.flocks.map((f) => f.identifier)]);
  const check = (flock: string, path: (string | number)[]) => {
    if (flock !== "*" && !known.has(flock)) _fail(path, `names flock "${flock}", which is neither in "flocks" nor in the database`);
  };
  config.users.forEach((u, i) => u.flocks.forEach((f, j) => check(f, ["users", i, "flocks", j])));
  config.templates.forEach((t, i) => check(t.flock, ["templates", i, "flock"]));
  config.triggers.forEach((t, i) => check(t.flock, ["triggers", i, "flock"]));
  config.resourceTypes.forEach((r, i) => check(r.flock, ["resourceTypes", i, "flock"]));
}

// --- internal ---

/**
 * Each type of `indexes.fields` is served by some flock (a built-in type, or one of
 * `resourceTypes`): a type none serves has no records, so its index would never be used,
 * most likely a misspelt name (docs/decisions.md).
 */
function _checkIndexTypes(parsed: Parsed): void {
  const served = new Set([...DEFAULT_RESOURCE_TYPES, ...parsed.resourceTypes.flatMap((r) => r.types)]);
  for (const type of Object.keys(parsed.indexes.fields)) {
    if (!served.has(type)) _fail(["indexes", "fields", type], `names type "${type}", which no flock serves (neither a built-in type nor in "resourceTypes")`);
  }
}

function _fail(path: (string | number)[], message: string): never {
  throw new ConfigError(`config: "${keyPath(path)}" ${message}`);
}

function _unique<T>(items: T[], key: (t: T) => string, path: (i: number) => (string | number)[]): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) _fail(path(i), `repeats an earlier entry (${k})`);
    seen.add(k);
  });
}
