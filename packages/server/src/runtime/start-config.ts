/**
 * @module runtime/start-config
 * Which configuration a start runs with. With a config file (`serve --config FILE`, or a
 * parsed config given to `startServer`), it is applied to the database (secret, flocks,
 * users) and recorded as the applied configuration (config/stored), a new revision when it
 * differs from the one in force. Without one, the configuration last applied to the
 * database is used, and the start says so in one line.
 */
import type { Clock, Storage } from "@records-service/core";
import type { PasswordHasher } from "../auth/passwords.js";
import { applyConfig } from "../config/apply.js";
import { parseConfig } from "../config.js";
import type { Config } from "../config/schema.js";
import { appliedConfigToken, readAppliedConfig, recordAppliedConfig, storedConfigToConfig } from "../config/stored.js";

/** The configuration a process starts with. */
export interface StartConfig {
  config: Config;
  /** The secret in force. */
  secret: string;
  /** The applied revision's token this configuration is (undefined: none applied yet). */
  token: string | undefined;
}

/**
 * Applies and records `given` (when there is one), else loads the stored configuration;
 * `out` gets one line saying which it is. Throws `ConfigError` for a config that does not
 * apply, or a stored one that no longer validates.
 *
 * @example
 * const { config, secret, token } = await startConfig(storage, clock, undefined, { out: console.log, passwords });
 * // config: using the configuration applied 2026-11-28T05:00:00.000Z (revision 3, from records.json; no --config given)
 */
export async function startConfig(
  storage: Storage,
  clock: Clock,
  given: Config | undefined,
  opts: { out: (line: string) => void; passwords: PasswordHasher; source?: string },
): Promise<StartConfig> {
  if (given) {
    const applied = await applyConfig(storage, clock, given, opts.passwords);
    const recorded = await recordAppliedConfig(storage, clock, given, { source: opts.source ?? "library", secretChanged: applied.secretChanged });
    if (recorded?.changed) opts.out(`config: applied ${describeApplied(recorded.stored)}; processes on this database take it up without restart`);
    else if (recorded) opts.out(`config: ${opts.source ?? "the given configuration"} is the configuration applied ${describeApplied(recorded.stored)} already`);
    return { config: given, secret: applied.secret, token: recorded?.stored.token ?? (await appliedConfigToken(storage)) };
  }
  // The token first: an apply landing between the two reads is then seen as a change later.
  const token = await appliedConfigToken(storage);
  const stored = await readAppliedConfig(storage);
  if (!stored) {
    opts.out("config: no configuration has been applied to this database yet; running with the defaults (no --config given; see records-service config apply)");
    const config = parseConfig({});
    return { config, secret: (await applyConfig(storage, clock, config, opts.passwords)).secret, token };
  }
  const config = storedConfigToConfig(stored);
  opts.out(`config: using the configuration applied ${describeApplied(stored, "no --config given")}`);
  // Users are left out of the stored form (they are in the database already); flocks named
  // in it are created if missing, the secret read.
  return { config, secret: (await applyConfig(storage, clock, config, opts.passwords)).secret, token };
}

/** `2026-11-28T05:00:00Z (revision 3, from records.json[; note])`. */
export function describeApplied(stored: { appliedAt: string; revision: number; source: string }, note?: string): string {
  return `${stored.appliedAt.replace(/\.\d{3}Z$/, "Z")} (revision ${stored.revision}, from ${stored.source}${note ? `; ${note}` : ""})`;
}
