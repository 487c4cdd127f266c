/**
 * @module contacts/memberships
 * A contact's memberships: the live `member` and `membership` records whose `member` field
 * is the contact's URI, read by index (a filter on `member`), a batch of contacts at a
 * time. Which of them are active on a day, and the entry shapes the hosted service answers
 * with (`membership/all`, `membership/summary`).
 */
import type { EngineContext } from "../records/types.js";
import { recordUri } from "../schema/references.js";
import { MEMBERSHIP_TYPES } from "../schema/resource-types.js";
import type { StoredRecord } from "../model/record.js";

/** Contact URIs asked for per query (a filter holds at most 100 values in the parser's limits). */
const URIS_PER_QUERY = 100;
/** Memberships read per page. */
const PAGE_SIZE = 1000;

/**
 * Statuses (`membership_record_status`, lower-cased) that end a membership before its end
 * date: such a membership is never active.
 */
const ENDED_STATUSES: readonly string[] = ["cancelled", "lapsed", "expired", "ended", "deleted", "inactive"];

/**
 * The live memberships of each contact in `uris`, newest first (see `isLater`), by URI;
 * contacts without one map to an empty list.
 *
 * @example
 * (await membershipsOf(ctx, "demo", ["/demo/person/…/"])).get("/demo/person/…/") // [member records]
 */
export async function membershipsOf(ctx: EngineContext, flock: string, uris: readonly string[]): Promise<Map<string, StoredRecord[]>> {
  const found = new Map<string, StoredRecord[]>(uris.map((u) => [u, []]));
  for (const type of MEMBERSHIP_TYPES) {
    if (!ctx.typesOf(flock).has(type)) continue;
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
        for (const m of records) found.get(m.data.member as string)?.push(m);
        if (records.length < PAGE_SIZE) break;
      }
    }
  }
  for (const list of found.values()) list.sort((a, b) => (isLater(a, b) ? -1 : isLater(b, a) ? 1 : 0));
  return found;
}

/** True when membership `a` is later than `b`: later `start_date`, then later creation, then larger id. */
function isLater(a: StoredRecord, b: StoredRecord): boolean {
  const sa = _date(a, "start_date");
  const sb = _date(b, "start_date");
  if (sa !== sb) return sa > sb;
  if (a.created !== b.created) return a.created > b.created;
  return a.id > b.id;
}

/**
 * True when the membership is active on `today` (`YYYY-MM-DD`): started (or no start date),
 * not ended (no end date, or ends today or later), and its status does not end it.
 *
 * @example
 * isActiveOn(member, "2026-05-01") // start 2026-01-01, end 2026-12-31, status "active" → true
 */
export function isActiveOn(m: StoredRecord, today: string): boolean {
  const status = m.data.membership_record_status;
  if (typeof status === "string" && ENDED_STATUSES.includes(status.trim().toLowerCase())) return false;
  const start = _date(m, "start_date").slice(0, 10);
  const end = _date(m, "end_date").slice(0, 10);
  return (start === "" || start <= today) && (end === "" || end >= today);
}

/**
 * The data fields of a `membership/all` entry: every field of the hosted shape (spec
 * v2-gateway section 0), in its order. Processor-named fields of the hosted shape (card and
 * accounting providers' subscription ids and account codes) are left out on purpose.
 */
const MEMBERSHIP_ENTRY_FIELDS: readonly string[] = [
  "member",
  "admin_contact",
  "billing_contact",
  "linked_members",
  "max_linked_members",
  "membership_number",
  "membership_type",
  "membership_plan_type",
  "membership_record_status",
  "start_date",
  "end_date",
  "cancellation_date",
  "lapse_reason",
  "advise_lapse",
  "auto_renew",
  "has_renewed",
  "next_membership_type",
  "next_payment_plan",
  "payment_plan",
  "period",
  "amount",
  "currency",
  "tax",
  "paid",
  "payment_date",
  "payment_method",
  "payment_reference",
  "gift_aid",
  "externally_managed",
  "mute_communications",
  "tags",
  "user_interface",
];

/**
 * One entry of `membership/all`: `uid`, `uri`, `display_value`, `created`, `last_updated`,
 * `record_state` and every field of `MEMBERSHIP_ENTRY_FIELDS`. A field the record does not
 * hold is null (the lists `linked_members` and `tags` are `[]`), never absent; `amount` is a
 * number (a numeric text is read as one, anything else is null); `user_interface` is an
 * object or null. References stay URIs, as in lists.
 */
export function membershipEntry(m: StoredRecord): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    uid: m.id,
    uri: recordUri(m.flock, m.type, m.id),
    display_value: m.displayValue,
    created: m.created,
    last_updated: m.lastUpdated,
    record_state: m.state,
  };
  for (const field of MEMBERSHIP_ENTRY_FIELDS) entry[field] = m.data[field] ?? null;
  entry.linked_members = _list(m.data.linked_members);
  entry.tags = _list(m.data.tags);
  entry.amount = _number(m.data.amount);
  const ui = m.data.user_interface;
  entry.user_interface = ui !== null && typeof ui === "object" && !Array.isArray(ui) ? ui : null;
  return entry;
}

/** One entry of `membership/summary`: the short form. */
export function membershipSummaryEntry(m: StoredRecord): Record<string, unknown> {
  return {
    uri: recordUri(m.flock, m.type, m.id),
    display_value: m.displayValue,
    membership_record_status: m.data.membership_record_status ?? null,
    start_date: m.data.start_date ?? null,
    end_date: m.data.end_date ?? null,
  };
}

// --- internal ---

function _list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v == null ? [] : [v];
}

function _number(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

/** A date field as comparable text ("" when unset): dates and timestamps sort by their text. */
function _date(r: StoredRecord, field: string): string {
  const v = r.data[field];
  return typeof v === "string" ? v : "";
}
