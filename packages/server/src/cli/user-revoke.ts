/**
 * @module cli/user-revoke
 * `records-service user revoke USERNAME [--flock ID] [--db PATH]`: ends every key and
 * session of one account, effective at once for a server on the same database (its caches
 * see another process's commit within 25 ms).
 */
import { revokeAccount } from "../auth/accounts.js";
import { memberAccountKey, normalizeUsername } from "../auth/usernames.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { describeDb } from "../storage-open.js";
import { withExistingStorage } from "./storage.js";

/**
 * Revokes the keys; exit 1 (one line) for an unknown user or a missing database.
 *
 * @example
 * await runUserRevoke({ kind: "user-revoke", db: "./data/records.db", username: "ada", flock: undefined }, io);
 * // prints: revoked 2 keys and sessions of user "ada"
 */
export async function runUserRevoke(cmd: Extract<Command, { kind: "user-revoke" }>, io: CliIo): Promise<number> {
  const username = normalizeUsername(cmd.username);
  const account = cmd.flock === undefined ? username : memberAccountKey(cmd.flock, username);
  const who = cmd.flock === undefined ? `user "${username}"` : `self-service user "${username}" of flock ${cmd.flock}`;
  return withExistingStorage(cmd.db, async (storage) => {
    const revoked = await revokeAccount(storage, account);
    if (revoked === undefined) {
      io.err(`records-service user revoke: unknown ${who} in ${describeDb(cmd.db)}`);
      return EXIT_FAILED;
    }
    io.out(`revoked ${revoked} ${revoked === 1 ? "key or session" : "keys and sessions"} of ${who}`);
    return EXIT_OK;
  });
}
