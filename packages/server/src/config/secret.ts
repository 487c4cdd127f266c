/**
 * @module config/secret
 * The HMAC secret (signed card URLs, webhook signatures) as the database holds it: one
 * setting, generated once when no config names one.
 */
import { randomBytes } from "node:crypto";
import type { Storage } from "@records-service/core";

/** The name of the setting that holds the HMAC secret. */
export const SECRET_SETTING = "secret";

/**
 * The stored secret, generating and storing 32 random bytes (hex) the first time.
 *
 * @example
 * const secret = await storedSecret(storage);
 */
export async function storedSecret(storage: Storage): Promise<string> {
  return (await storage.getSetting(SECRET_SETTING)) ?? storage.initSetting(SECRET_SETTING, randomBytes(32).toString("hex"));
}
