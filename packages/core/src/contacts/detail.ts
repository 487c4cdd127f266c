/**
 * @module contacts/detail
 * The contact sub-resources whose bodies the hosted service leaves undocumented, shaped as
 * its public clients read them: `communications/detail` (emails, telephones, postal
 * address), `personal/detail` (names, title, birth date, gender ...) and `summary`.
 */
import { primaryEntry } from "../schema/list-entries.js";
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";
import { isActiveOn, membershipSummaryEntry } from "./memberships.js";

/** The postal address fields, as the person schema names them. */
const ADDRESS_FIELDS: readonly string[] = ["address_lines", "locality", "region", "postal_code", "country", "iso_country", "mailsort_code"];

/** The personal fields of a person (the organisation's open schema keeps its naming fields). */
const PERSONAL_FIELDS: readonly string[] = [
  "title",
  "first_name",
  "initial",
  "last_name",
  "known_as",
  "name_suffix",
  "formatted_name",
  "salutation",
  "sortable_name",
  "date_of_birth",
  "gender",
  "adult",
  "deceased",
  "date_of_death",
  "language",
  "time_zone",
  "job_title",
];

/** The naming fields of an organisation, in the order a client shows them. */
const ORGANISATION_PERSONAL_FIELDS: readonly string[] = ["name", "legal_name", "trading_name", "registration_number", "domain", "website"];

/**
 * `communications/detail`: every email and telephone entry as stored (`value;label`), the
 * primary of each, the email opt-outs, and the postal address.
 *
 * @example
 * communicationsDetail(ada).primary_email // "ada@example.org"
 */
export function communicationsDetail(contact: StoredRecord): Record<string, unknown> {
  const email = _list(contact.data.email);
  const telephone = _list(contact.data.telephone);
  const address: Record<string, unknown> = {};
  for (const field of ADDRESS_FIELDS) address[field] = field === "address_lines" ? _list(contact.data[field]) : (contact.data[field] ?? null);
  return {
    contact_uri: _uri(contact),
    email,
    primary_email: primaryEntry(email)?.value ?? null,
    telephone,
    primary_telephone: primaryEntry(telephone)?.value ?? null,
    email_opt_out: contact.data.email_opt_out ?? null,
    comms_permission: _list(contact.data.comms_permission),
    address,
    ...address,
  };
}

/** `personal/detail`: the personal fields (unset ones null). */
export function personalDetail(contact: StoredRecord): Record<string, unknown> {
  const fields = contact.type === "person" ? PERSONAL_FIELDS : ORGANISATION_PERSONAL_FIELDS;
  const out: Record<string, unknown> = { contact_uri: _uri(contact), display_value: contact.displayValue };
  for (const field of fields) out[field] = contact.data[field] ?? null;
  return out;
}

/**
 * `summary`: the display value, the primary email and telephone, and the current membership
 * (the newest active on `today`, else null) with the count of active ones.
 *
 * @example
 * contactSummary(ada, memberships, "2026-05-01").current_membership?.display_value // "Gold 0042"
 */
export function contactSummary(contact: StoredRecord, memberships: readonly StoredRecord[], today: string): Record<string, unknown> {
  const active = memberships.filter((m) => isActiveOn(m, today));
  return {
    contact_uri: _uri(contact),
    resource: contact.type,
    display_value: contact.displayValue,
    state: contact.state,
    primary_email: primaryEntry(_list(contact.data.email))?.value ?? null,
    primary_telephone: primaryEntry(_list(contact.data.telephone))?.value ?? null,
    current_membership: active[0] ? membershipSummaryEntry(active[0]) : null,
    active_membership_count: active.length,
  };
}

// --- internal ---

function _uri(r: StoredRecord): string {
  return recordUri(r.flock, r.type, r.id);
}

/** A list field's string entries ([] when unset). */
function _list(v: unknown): string[] {
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((e): e is string => typeof e === "string") : [];
}
