/**
 * @module tasks/last-membership
 * Each person's last membership: of the live `member` and `membership` records whose
 * `member` field is the person's URI, the one with the latest `start_date` (ties: the
 * latest created). A membership without a start date comes before every dated one.
 */
import { membershipsOf } from "../contacts/memberships.js";
import type { EngineContext } from "../records/types.js";
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";

/**
 * The last membership of each of `persons`, by person URI (people without one are absent).
 *
 * @example
 * (await latestMemberships(ctx, "demo", [ada])).get("/demo/person/…/") // the member record
 */
export async function latestMemberships(ctx: EngineContext, flock: string, persons: readonly StoredRecord[]): Promise<Map<string, StoredRecord>> {
  const all = await membershipsOf(ctx, flock, persons.map((p) => recordUri(p.flock, p.type, p.id)));
  const latest = new Map<string, StoredRecord>();
  for (const [uri, list] of all) if (list[0]) latest.set(uri, list[0]);
  return latest;
}
