/**
 * @module tasks/last-membership
 * Each person's last membership: of the live `member` and `membership` records whose
 * `member` field is the person's URI, the one with the latest `start_date` (ties: the
 * latest created). A membership without a start date comes before every dated one.
 */
import type { EngineContext } from "../records/types.js";
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../storage/types.js";
import { MEMBERSHIP_TYPES } from "../schema/resource-types.js";

/** Person URIs asked for per query (a filter holds at most 100 values in the parser's limits). */
const URIS_PER_QUERY = 100;
/** Memberships read per page. */
const PAGE_SIZE = 1000;

/**
 * The last membership of each of `persons`, by person URI (people without one are absent).
 *
 * @example
 * (await latestMemberships(ctx, "demo", [ada])).get("/demo/person/…/") // the member record
 */
export async function latestMemberships(ctx: EngineContext, flock: string, persons: readonly StoredRecord[]): Promise<Map<string, StoredRecord>> {
  const uris = persons.map((p) => recordUri(p.flock, p.type, p.id));
  const latest = new Map<string, StoredRecord>();
  for (const type of MEMBERSHIP_TYPES) {
    if (!ctx.resourceTypes.has(type)) continue;
    for (let i = 0; i < uris.length; i += URIS_PER_QUERY) {
      const values = uris.slice(i, i + URIS_PER_QUERY).map((text) => ({ text }));
      for (let page = 1; ; page++) {
        const { records } = await ctx.storage.listRecords(flock, type, {
          filters: [{ field: "member", meta: false, op: "or", values }],
          mode: "AND",
          states: ["updated"],
          page,
          pageSize: PAGE_SIZE,
        });
        for (const m of records) {
          const owner = m.data.member as string;
          const current = latest.get(owner);
          if (!current || isLater(m, current)) latest.set(owner, m);
        }
        if (records.length < PAGE_SIZE) break;
      }
    }
  }
  return latest;
}

/** True when membership `a` is later than `b`: later `start_date`, then later creation, then larger id. */
export function isLater(a: StoredRecord, b: StoredRecord): boolean {
  const sa = _startDate(a);
  const sb = _startDate(b);
  if (sa !== sb) return sa > sb;
  if (a.created !== b.created) return a.created > b.created;
  return a.id > b.id;
}

// --- internal ---

/** The start date as comparable text ("" when unset): dates and timestamps sort by their text. */
function _startDate(r: StoredRecord): string {
  const v = r.data.start_date;
  return typeof v === "string" ? v : "";
}
