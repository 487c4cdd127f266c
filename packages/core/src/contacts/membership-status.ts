/**
 * @module contacts/membership-status
 * `user/membership/?email=`: a person's membership status as the hosted service answers it,
 * computed from the memberships on every request (nothing is cached, so every process
 * answers the same right after a write).
 */
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";
import { isActiveOn } from "./memberships.js";

/** Days after `member_till` that `member_till_plus_grace` adds. */
const MEMBERSHIP_GRACE_DAYS = 30;

/**
 * The status of `person` from its memberships (newest first) on `today` (`YYYY-MM-DD`).
 *
 * @example
 * membershipStatus(ada, memberships, "2026-05-01").member_till // "2026-12-31"
 */
export function membershipStatus(person: StoredRecord, memberships: readonly StoredRecord[], today: string): Record<string, unknown> {
  const active = memberships.filter((m) => isActiveOn(m, today));
  const starts = memberships.map((m) => _day(m.data.start_date)).filter((d) => d !== "");
  const ends = memberships.map((m) => _day(m.data.end_date)).filter((d) => d !== "");
  const openEnded = memberships.some((m) => _day(m.data.end_date) === "" && isActiveOn(m, today));
  const till = openEnded || ends.length === 0 ? null : ends.reduce((a, b) => (a > b ? a : b));
  const status = (active[0] ?? memberships[0])?.data.membership_record_status;
  return {
    person: recordUri(person.flock, person.type, person.id),
    display_value: person.displayValue,
    is_member: active.length > 0,
    active_memberships_for_display: active.map((m) => m.displayValue),
    membership_numbers: active.map((m) => m.data.membership_number).filter((n) => n !== undefined && n !== null && n !== ""),
    membership_record_status: typeof status === "string" ? status : null,
    member_since: starts.length ? starts.reduce((a, b) => (a < b ? a : b)) : null,
    member_till: till,
    member_till_plus_grace: till ? _addDays(till, MEMBERSHIP_GRACE_DAYS) : null,
  };
}

// --- internal ---

/** The `YYYY-MM-DD` part of a date or timestamp field ("" when unset or not a date). */
function _day(v: unknown): string {
  return typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : "";
}

function _addDays(day: string, days: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
