/**
 * @module cli/webhook-secret
 * `records-service webhook-secret FLOCK [--db PATH] [--config FILE]`: prints the key that
 * signs the flock's webhook deliveries (`whsec_<base64>`), the one to give that flock's
 * receivers. It is derived from the secret in force: the config file's `secret` when
 * `--config` names one (the server applies it at its next start), else the database's.
 */
import { existsSync } from "node:fs";
import type { Storage } from "@records-service/core";
import { loadConfig } from "../config.js";
import { formatWebhookKey, webhookKey } from "../config/keys.js";
import type { Config } from "../config/schema.js";
import { storedSecret } from "../config/secret.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { describeDb } from "../storage-open.js";
import { withExistingStorage } from "./storage.js";

/**
 * Prints the flock's webhook key on stdout (nothing else, so it can be captured); exit 1
 * for a flock that is neither in the database nor in the config file.
 *
 * @example
 * await runWebhookSecret({ kind: "webhook-secret", flock: "demo", db: "./data/records.db", config: undefined }, io);
 * // stdout: whsec_…
 */
export async function runWebhookSecret(cmd: Extract<Command, { kind: "webhook-secret" }>, io: CliIo): Promise<number> {
  const config = cmd.config !== undefined ? loadConfig(cmd.config) : undefined;
  const inConfig = config?.flocks.some((f) => f.identifier === cmd.flock) ?? false;
  // A config naming both the secret and the flock is enough, before any first start.
  if (config?.secret !== undefined && inConfig && !existsSync(cmd.db)) {
    io.out(formatWebhookKey(webhookKey(config.secret, cmd.flock)));
    return EXIT_OK;
  }
  return withExistingStorage(cmd.db, async (storage) => {
    if (!inConfig && !(await storage.getFlock(cmd.flock))) {
      io.err(`records-service webhook-secret: there is no flock ${JSON.stringify(cmd.flock)} (in ${describeDb(cmd.db)}${cmd.config ? ` or ${cmd.config}` : ""})`);
      return EXIT_FAILED;
    }
    io.out(formatWebhookKey(webhookKey(await _secret(storage, config), cmd.flock)));
    return EXIT_OK;
  });
}

// --- internal ---

/** The secret the server uses: the config's (it replaces the stored one at start), else the stored one. */
async function _secret(storage: Storage, config: Config | undefined): Promise<string> {
  return config?.secret ?? storedSecret(storage);
}
