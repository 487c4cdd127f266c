/**
 * @module config
 * The config file of `records-service serve --config FILE`: JSON, every key optional, every
 * object strict. `parseConfig` validates and fills defaults; `applyConfig` (config/apply.ts)
 * writes the secret, flocks and users to the database idempotently. The other sections are
 * returned parsed (triggers resolved by core's `validateTriggers`) for the workers that use them.
 */
import { readFileSync } from "node:fs";
import { DEFAULT_RESOURCE_TYPES } from "@records-service/core";
import * as v from "valibot";
import { ConfigError, describeIssue } from "./config/issues.js";
import { resolveConsistency } from "./config/references.js";
import { configSchema, type Config } from "./config/schema.js";

export { ConfigError } from "./config/issues.js";
export { type AppliedConfig } from "./config/apply.js";
export {
  CONFIG_DEFAULTS,
  type AuthConfig,
  type Config,
  type FlockConfig,
  type MailConfig,
  type SchedulerConfig,
  type TemplateConfig,
  type ThrottleConfig,
  type UserConfig,
  type WebhooksConfig,
} from "./config/schema.js";

/**
 * Validates a config value (parsed JSON). Throws `ConfigError` naming the first bad key.
 *
 * @example
 * parseConfig({ flocks: [{ identifier: "demo" }] }).webhooks.firstRetryDelayMs; // 60000
 */
export function parseConfig(json: unknown): Config {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new ConfigError(`config: expected a JSON object at the top level, got ${_kind(json)}`);
  }
  const result = v.safeParse(configSchema, json);
  if (!result.success) throw new ConfigError(describeIssue(result.issues[0], configSchema));
  const config = resolveConsistency(result.output);
  // A copy, so the caller changing its object later does not change what gets stored.
  _documents.set(config, structuredClone(json) as Record<string, unknown>);
  return config;
}

/**
 * The document `config` was parsed from (as written, before defaults), which applying
 * stores in the database (config/stored); undefined for a config not made by `parseConfig`.
 *
 * @example
 * configDocument(parseConfig({ flocks: [{ identifier: "demo" }] })) // { flocks: [{ identifier: "demo" }] }
 */
export function configDocument(config: Config): Record<string, unknown> | undefined {
  return _documents.get(config);
}

/** Reads and validates a JSON config file. Throws `ConfigError` when it cannot be read or is invalid. */
export function loadConfig(path: string): Config {
  let textContent: string;
  try {
    textContent = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError(`config: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(textContent);
  } catch (e) {
    throw new ConfigError(`config: ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return parseConfig(json);
}

/**
 * The config's `resourceTypes` as the engine takes them: the extra type names by flock,
 * without the default types (served everywhere already; naming one is accepted and ignored).
 *
 * @example
 * flockResourceTypes(parseConfig({ resourceTypes: [{ flock: "demo", types: ["volunteer"] }] })) // { demo: ["volunteer"] }
 */
export function flockResourceTypes(config: Config): Record<string, string[]> {
  return Object.fromEntries(config.resourceTypes.map((r) => [r.flock, r.types.filter((t) => !DEFAULT_RESOURCE_TYPES.includes(t))]));
}

// --- internal ---

const _documents = new WeakMap<Config, Record<string, unknown>>();

function _kind(x: unknown): string {
  if (Array.isArray(x)) return "a list";
  if (x === null) return "null";
  return `a ${typeof x}`;
}
