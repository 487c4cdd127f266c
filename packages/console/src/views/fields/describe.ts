/**
 * @module views/fields/describe
 * What the console knows about a field to edit it: its label in words, its kind (which
 * widget), whether it is derived (read-only), which record type a reference points at, and
 * for the person type the group it belongs to. The person schema is core's (PERSON_FIELDS);
 * the other types are open, so their kinds come from the contract's named fields and, for
 * the rest, from the value held.
 */
import { PERSON_FIELDS } from "@records-service/core";

/** Which widget edits a field. */
export type FieldKind = "text" | "longtext" | "derived" | "boolean" | "date" | "list" | "number" | "reference" | "json";

/** The field's label in words: `date_of_birth` → "Date of birth", `person_ref` → "Person". */
export function labelOf(field: string): string {
  if (_LABELS[field]) return _LABELS[field];
  const words = field.replace(/_ref$/, "").split("_").filter(Boolean);
  const text = words.map((w) => _WORDS[w] ?? w).join(" ");
  return text ? text[0]!.toUpperCase() + text.slice(1) : field;
}

/**
 * How `field` of `type` is edited, given the value it holds (undefined for a new record).
 *
 * @example
 * kindOf("person", "formatted_name", "Ada Lovelace") // "derived"
 * kindOf("membership", "member", undefined)          // "reference"
 */
export function kindOf(type: string, field: string, value: unknown): FieldKind {
  if (type === "person") {
    const k = PERSON_FIELDS[field];
    if (k === "system") return "derived";
    if (k === "boolean" || k === "flag") return "boolean";
    if (k === "date") return "date";
    if (k === "list") return "list";
    if (k === "json") return "json";
    if (field === "bio" || field === "notes" || field.startsWith("emergency_contact")) return "longtext";
    if (k) return "text";
  }
  if (referenceTarget(type, field, value)) return "reference";
  const named = _NAMED[field];
  if (named) return named;
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return "date";
  if (Array.isArray(value) && value.every((e) => typeof e === "string" || e === null)) return "list";
  if (value !== null && typeof value === "object") return "json";
  if (/_date$|^date$/.test(field)) return "date";
  return "text";
}

/** The record type a reference field points at, or undefined when it is not a reference. */
export function referenceTarget(type: string, field: string, value: unknown): string | undefined {
  const uri = refUri(value) ?? (typeof value === "string" ? value : undefined);
  const m = uri ? /^\/[^/]+\/([a-z][a-z0-9_]*)\/[0-9a-f]{24}\/?$/.exec(uri) : null;
  if (m) return m[1];
  if (type === "person") return undefined;
  if ((type === "member" || type === "membership") && field === "member") return "person";
  return _REF_TARGETS[field];
}

/** The URI of an expanded reference (`{display_value, ref}`), else undefined. */
export function refUri(v: unknown): string | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v) || !("ref" in v)) return undefined;
  const ref = (v as { ref: unknown }).ref;
  return typeof ref === "string" ? ref : undefined;
}

/** The person form's groups, in order; fields not named here are "Other". */
export const PERSON_GROUPS: readonly { title: string; fields: readonly string[] }[] = [
  {
    title: "Name",
    fields: ["title", "first_name", "known_as", "initial", "last_name", "name_suffix", "date_of_birth", "gender", "formatted_name", "editable_formatted_name", "salutation", "editable_salutation", "sortable_name"],
  },
  {
    title: "Contact",
    fields: ["email", "telephone", "website", "email_opt_out", "automatic_email_opt_out", "comms_permission", "messaging_username", "social1_username", "social2_username", "social3_username", "professional_network_public_profile"],
  },
  { title: "Address", fields: ["address_lines", "locality", "region", "postal_code", "country", "iso_country", "mailsort_code", "time_zone", "geo"] },
  { title: "Membership", fields: ["member_since", "member_original_join_date", "has_direct_debit_mandate", "directdebit_uid"] },
];

/** The fields a new record of `type` starts with (person: its whole schema but the derived). */
export function newRecordFields(type: string): string[] {
  if (type === "person") return Object.keys(PERSON_FIELDS).filter((f) => PERSON_FIELDS[f] !== "system");
  return [...(_TEMPLATES[type] ?? [])];
}

/**
 * A record's title in words: a membership by its plan and member ("Family — Ada Lovelace"),
 * anything else by its display value.
 */
export function titleOf(type: string, data: Record<string, unknown>, displayValue: string): string {
  if (type === "member" || type === "membership") {
    // The plan: the contract's membership_type, else the name some flocks give it.
    const plan = [data.membership_type, data.name].find((v): v is string => typeof v === "string" && v.trim() !== "") ?? "";
    const m = data.member;
    const who = typeof m === "object" && m !== null && "display_value" in m ? String((m as { display_value: unknown }).display_value ?? "") : "";
    const parts = [plan || "Membership", who].filter(Boolean);
    if (plan || who) return parts.join(" — ");
    // The service's placeholder ("an empty membership") says nothing a title should.
    if (/^an? empty /.test(displayValue)) return "Membership";
  }
  return displayValue;
}

// --- internal ---

const _LABELS: Record<string, string> = {
  iso_country: "ISO country",
  sen: "Special educational needs",
  geo: "Location (JSON)",
  comms_permission: "Communication permissions",
  social1_username: "Social account 1",
  social2_username: "Social account 2",
  social3_username: "Social account 3",
  professional_network_public_profile: "Professional profile",
  editable_formatted_name: "Full name (override)",
  editable_salutation: "Salutation (override)",
  formatted_name: "Full name",
  sortable_name: "Sort name",
  member: "Member",
};

const _WORDS: Record<string, string> = { uid: "UID", url: "URL", id: "ID", ids: "IDs", dob: "date of birth", sen: "SEN" };

const _REF_TARGETS: Record<string, string> = {
  person_ref: "person",
  buyer_ref: "person",
  contact_ref: "person",
  bookable_ref: "bookable",
  membership_ref: "membership",
  ticket_ref: "ticket",
  donation_ref: "donation",
  reservation_ref: "reservation",
  invoice_ref: "invoice",
  booking_ref: "booking",
  organisation_ref: "organisation",
};

const _NAMED: Record<string, FieldKind> = {
  start_date: "date",
  end_date: "date",
  payment_date: "date",
  date: "date",
  auto_renew: "boolean",
  amount: "number",
  tags: "list",
};

const _TEMPLATES: Record<string, readonly string[]> = {
  member: ["member", "membership_type", "membership_number", "membership_record_status", "start_date", "end_date", "auto_renew"],
  membership: ["member", "membership_type", "membership_number", "membership_record_status", "start_date", "end_date", "auto_renew"],
  booking: ["title", "person_ref", "start_date", "status"],
  payment: ["amount", "payment_date", "membership_ref"],
  organisation: ["name", "email", "telephone", "website"],
  journal: ["kind", "title", "body", "contact_ref"],
  invoice: ["person_ref", "date", "amount"],
  donation: ["person_ref", "date", "amount"],
  pledge: ["person_ref", "date", "amount"],
  ticket: ["person_ref", "start_date"],
  ticketed_event: ["name", "start_date"],
  reservation: ["buyer_ref", "bookable_ref"],
  bookable: ["name"],
};
