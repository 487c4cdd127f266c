/**
 * @module cli/user-add
 * `records-service user add USERNAME --password PW --flock ID [--flock ID ...] [--role R] [--db PATH]`.
 */
import { isRecordsError, systemClock } from "@records-service/core";
import { createUser, normalizeUsername } from "../auth/accounts.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withStorage } from "./storage.js";
import { describeDb } from "../storage-open.js";

/**
 * Creates or replaces the user; exit 1 when a flock does not exist, 2 for a bad username or
 * password (naming the rule). Says what it did, and how many keys a new password ended.
 *
 * @example
 * await runUserAdd({ kind: "user-add", db, username: "ada", password: "a long password", flocks: ["demo"], role: "core" }, io);
 * // prints: created core user "ada" with access to flock demo
 */
export async function runUserAdd(cmd: Extract<Command, { kind: "user-add" }>, io: CliIo): Promise<number> {
  return withStorage(cmd.db, async (storage) => {
    for (const id of cmd.flocks) {
      if (id !== "*" && !(await storage.getFlock(id))) {
        io.err(`unknown flock "${id}" in ${describeDb(cmd.db)}: create it first with records-service flock add ${id}`);
        return EXIT_FAILED;
      }
    }
    let change;
    try {
      change = await createUser(storage, systemClock, { username: cmd.username, password: cmd.password, flocks: cmd.flocks, role: cmd.role });
    } catch (e) {
      if (!isRecordsError(e)) throw e;
      io.err(`records-service user add: ${e.detail}`);
      return EXIT_USAGE;
    }
    const access = cmd.flocks.includes("*") ? "every flock" : `flock${cmd.flocks.length > 1 ? "s" : ""} ${cmd.flocks.join(", ")}`;
    const notes = [
      ...(change.disabledCore ? ["disabled the core user of that name"] : []),
      ...(change.revoked > 0 ? [`revoked ${change.revoked} ${change.revoked === 1 ? "key or session" : "keys and sessions"}`] : []),
    ];
    io.out(
      `${change.created ? "created" : "replaced"} ${cmd.role} user "${normalizeUsername(cmd.username)}" with access to ${access}` +
        (notes.length > 0 ? `; ${notes.join("; ")}` : ""),
    );
    return EXIT_OK;
  });
}
