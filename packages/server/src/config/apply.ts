/**
 * @module config/apply
 * Writes the parts of a config that live in the database: the signing secret, the flocks,
 * the users and the declared indexes. Idempotent: applying the same config twice creates nothing twice and
 * leaves every row as it was, so no one is logged out by a restart; a user whose password
 * changed loses its keys and sessions (see auth/accounts).
 */
import { createRecordEngine, formatTimestamp, isRecordsError, type Clock, type Storage } from "@records-service/core";
import { createUser } from "../auth/accounts.js";
import { defaultPasswordHasher, type PasswordHasher } from "../auth/passwords.js";
import { SECRET_SETTING, storedSecret } from "./secret.js";
import { ConfigError } from "./issues.js";
import { checkFlocksExist } from "./references.js";
import type { Config } from "./schema.js";

export { SECRET_SETTING } from "./secret.js";

/** What applying changed, for the start-up message. */
export interface AppliedConfig {
  /** The secret in force (from the config, or generated on first start and stored). */
  secret: string;
  flocksCreated: string[];
  flocksRenamed: string[];
  /** The config's `secret` replaced a different stored one. */
  secretChanged: boolean;
}

/**
 * Applies `config` to `storage`. Throws `ConfigError` naming the key when a reference does
 * not resolve. A configured `secret` replaces the stored one.
 *
 * @example
 * await applyConfig(storage, systemClock, parseConfig({ flocks: [{ identifier: "demo" }] }));
 */
export async function applyConfig(
  storage: Storage,
  clock: Clock,
  config: Config,
  passwords: PasswordHasher = defaultPasswordHasher(),
): Promise<AppliedConfig> {
  const existing = new Map((await storage.listFlocks()).map((f) => [f.identifier, f]));
  checkFlocksExist(config, new Set(existing.keys()));

  const { secret, changed: secretChanged } = await _applySecret(storage, config.secret);
  const flocksCreated: string[] = [];
  const flocksRenamed: string[] = [];
  for (const f of config.flocks) {
    const name = f.name ?? f.identifier;
    const current = existing.get(f.identifier);
    if (!current) {
      await storage.createFlock({ identifier: f.identifier, name, created: formatTimestamp(clock.now()) });
      flocksCreated.push(f.identifier);
    } else if (f.name !== undefined && current.name !== f.name) {
      await storage.renameFlock(f.identifier, f.name);
      flocksRenamed.push(f.identifier);
    }
  }
  for (const [i, u] of config.users.entries()) {
    try {
      await createUser(storage, clock, { username: u.username, password: u.password, flocks: u.flocks, role: u.role }, passwords);
    } catch (e) {
      if (isRecordsError(e)) throw new ConfigError(`config: "users[${i}]" ${e.detail}`);
      throw e;
    }
  }
  // The declared indexes, as every-flock registry rows (built in the background by the index worker).
  await createRecordEngine({ storage, clock }).indexes.applyConfig(config.indexes.fields);
  return { secret, flocksCreated, flocksRenamed, secretChanged };
}

// --- internal ---

async function _applySecret(storage: Storage, configured: string | undefined): Promise<{ secret: string; changed: boolean }> {
  if (configured === undefined) return { secret: await storedSecret(storage), changed: false };
  // The config is the operator's word: a new value rotates the key (old card links and
  // webhook signatures stop verifying, which is what rotating a key is for).
  const before = await storage.getSetting(SECRET_SETTING);
  if (before === configured) return { secret: configured, changed: false };
  await storage.putSetting(SECRET_SETTING, configured);
  return { secret: configured, changed: before !== undefined };
}
