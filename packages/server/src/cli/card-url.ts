/**
 * @module cli/card-url
 * `records-service card-url FLOCK MEMBER_ID [--db PATH] [--base-url URL]`: prints a
 * member's signed card link, signed with the database's secret.
 */
import { isRecordsError } from "@records-service/core";
import { memberCardUrl } from "../derived/card-url.js";
import type { Command } from "./args.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { withExistingStorage } from "./storage.js";
import { describeDb } from "../storage-open.js";

/** Prints the URL; exit 1 when the flock or the member does not exist. */
export async function runCardUrl(cmd: Extract<Command, { kind: "card-url" }>, io: CliIo): Promise<number> {
  return withExistingStorage(cmd.db, async (storage) => {
    try {
      io.out(await memberCardUrl(storage, { flock: cmd.flock, memberId: cmd.memberId, baseUrl: cmd.baseUrl }));
      return EXIT_OK;
    } catch (e) {
      if (!isRecordsError(e)) throw e;
      io.err(`records-service card-url: ${e.detail} (in ${describeDb(cmd.db)})`);
      return EXIT_FAILED;
    }
  });
}
