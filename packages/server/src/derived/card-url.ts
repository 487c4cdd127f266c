/**
 * @module derived/card-url
 * Signed member card links for a database: the secret is the stored setting `secret`
 * (set from the config file, or generated on first start), so a link made here verifies on
 * any server started on the same database.
 */
import { isRecordId, notFound, type Storage } from "@records-service/core";
import { storedSecret } from "../config/secret.js";
import { cardUrl } from "./card-signature.js";

export { storedSecret } from "../config/secret.js";

/** What `memberCardUrl` takes. */
export interface MemberCardUrlOptions {
  flock: string;
  memberId: string;
  /** The server's public origin (the CLI's `--base-url`, default config/schema `FLAG_DEFAULTS.baseUrl`). */
  baseUrl: string;
}

/**
 * The signed card URL of a member record, checking that the flock and the (not deleted)
 * member exist. Throws a 404 `RecordsError` naming what is missing.
 *
 * @example
 * await memberCardUrl(storage, { flock: "demo", memberId: id, baseUrl: "https://records.example.org" })
 * // "https://records.example.org/api/v2/demo/member/<id>/card/?signature=<64 hex>"
 */
export async function memberCardUrl(storage: Storage, opts: MemberCardUrlOptions): Promise<string> {
  const { flock, memberId } = opts;
  if (!(await storage.getFlock(flock))) throw notFound("unknown flock", `there is no flock ${JSON.stringify(flock)}`);
  const record = isRecordId(memberId) ? await storage.getRecord(flock, "member", memberId) : undefined;
  if (!record || record.state === "deleted") {
    throw notFound("unknown member", `flock ${JSON.stringify(flock)} has no member ${JSON.stringify(memberId.slice(0, 80))}`);
  }
  return cardUrl(opts.baseUrl, await storedSecret(storage), flock, memberId);
}
