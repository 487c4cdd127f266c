/**
 * @module runtime/triggers
 * The triggers a server runs: the config file's, plus those given through the library
 * API (`startServer({ triggers })`), checked by the same rules as the config's. The
 * engine reads them through a provider, by flock.
 */
import { isRecordsError, validateTriggers, type TriggerConfig, type TriggerProvider } from "@records-service/core";
import type { Config } from "../config/schema.js";
import { ConfigError } from "../config/issues.js";

/**
 * Checks the library API's trigger entries (as written in a config file) and joins them to
 * the config's. Throws `ConfigError` naming each problem, including an entry that repeats
 * an action of a config trigger.
 *
 * @example
 * const provider = triggerProvider(resolveTriggers(config, [{ flock: "demo", trigger: "login", action: "send-json-webhook", url: "https://example.org/h" }]));
 */
export function resolveTriggers(config: Config, extra: readonly unknown[] = []): { triggers: TriggerConfig[]; warnings: string[] } {
  if (extra.length === 0) return { triggers: config.triggers, warnings: [] };
  let checked: { triggers: TriggerConfig[]; warnings: string[] };
  try {
    checked = validateTriggers(extra, {
      allowInsecureUrls: config.webhooks.allowInsecureUrls,
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
    });
  } catch (e) {
    if (isRecordsError(e)) throw new ConfigError(`triggers option: ${e.detail}`);
    throw e;
  }
  const key = (t: TriggerConfig) => `${t.flock}\u0000${t.trigger}\u0000${t.action}`;
  const configured = new Set(config.triggers.map(key));
  const repeated = checked.triggers.filter((t) => configured.has(key(t)));
  if (repeated.length > 0) {
    const names = repeated.map((t) => `${t.trigger} (${t.action}) in flock ${t.flock}`).join(", ");
    throw new ConfigError(`triggers option: ${names} repeats a trigger action of the config file; each trigger takes at most one action of each type`);
  }
  return { triggers: [...config.triggers, ...checked.triggers], warnings: checked.warnings.map((w) => `triggers option: ${w}`) };
}

/**
 * The engine's provider over a fixed trigger list, indexed by flock.
 *
 * @example
 * createRecordEngine({ storage, triggers: triggerProvider(config.triggers) });
 */
export function triggerProvider(triggers: readonly TriggerConfig[]): TriggerProvider {
  const byFlock = new Map<string, TriggerConfig[]>();
  for (const t of triggers) {
    const list = byFlock.get(t.flock) ?? [];
    list.push(t);
    byFlock.set(t.flock, list);
  }
  return (flock) => byFlock.get(flock) ?? [];
}
