/**
 * @module events/catalogue
 * Every data event of the spec's four tables, as data: its variations and their day
 * offsets, the record it is about, the date it counts from, its direction and conditions.
 * Trigger names, the scheduler and the docs all read this one table.
 */
import { modifierDays, modifierWord } from "./modifiers.js";
import type { Catalogue, EventCondition, EventEntry, EventGroup, VariationEntry, VariationPattern } from "./types.js";
import { MEMBERSHIP_TYPES } from "../schema/resource-types.js";

/** Membership statuses (`membership_record_status`, compared without case) that stop expiry reminders. */
const RENEWED_STATUS = "renewed";
const CANCELLED_STATUS = "cancelled";

const NOT_RENEWED_OR_CANCELLED: EventCondition = {
  kind: "not_one_of",
  field: "membership_record_status",
  values: [RENEWED_STATUS, CANCELLED_STATUS],
};
const STATE_PATTERNS: readonly VariationPattern[] = [
  { template: "state_{from}_to_{to}", regex: /^state_([a-z0-9]+(?:_[a-z0-9]+)*?)_to_([a-z0-9]+(?:_[a-z0-9]+)*)$/ },
  { template: "state_{to}", regex: /^state_([a-z0-9]+(?:_[a-z0-9]+)*)$/ },
];

/** The entries, in the order of the spec's tables. */
const ENTRIES: readonly EventEntry[] = [
  // --- general ---
  _daily("action_required_summary", "summary of required actions (one per flock per day, at 00:00 UTC)"),
  _action("donation", "general", ["pledge"], {
    types: ["donation", "pledge"],
    field: "date",
    about: "donation and pledge are one event; fires once when a donation or pledge is made",
  }),
  _relative("no_payment_invoice", "general", [180, 90, 28, 7], {
    types: ["invoice"],
    field: "date",
    direction: "after",
    conditions: [{ kind: "unpaid" }],
    about: "the invoice's date plus the variation, while no payment references the invoice",
  }),
  _action("contact", "general", ["created"], { types: ["person", "organisation"], field: "created", about: "people and organisations" }),
  _relative("evidence_draft_reference", "general", ["1wk", "2wk", "3wk"], {
    types: ["evidence"],
    field: "created",
    direction: "after",
    about: "creation date plus the variation",
  }),
  _action("form_response", "general", ["created", "submitted", "withdrawn", "scoring_complete"], {
    types: ["form_response"],
    patterns: STATE_PATTERNS,
    about: "state variations only when the state is changed through a flow board",
  }),
  _action("reservation", "general", ["created", "cancelled"], {
    types: ["reservation"],
    field: "created",
    patterns: STATE_PATTERNS,
    about: "state variations only when the state is changed through a flow board",
  }),
  _action("ticket", "general", ["confirmation"], { types: ["ticket"], field: "created", about: "when a ticket is created" }),
  _relative("ticketed_event", "general", [7, 1, 0, -1, -2, -7, -14, -28, -90], {
    types: ["ticket", "ticketed_event"],
    field: "start_date",
    direction: "before",
    about: "1wk fires a week before the event starts; minus_1d a day after it starts",
  }),
  _relative("vm_start", "general", [7, 1, 0, -1, -2, -7, -14, -21, -28, -30, -90], {
    types: ["booking"],
    field: "start_date",
    direction: "before",
    about: "1wk fires a week before the booking starts; minus_30d 30 days after it starts",
  }),
  _action("achievement", "general", ["completed"], { types: ["achievement"], about: "when an achievement is marked complete" }),

  // --- membership ---
  _relative("cancelled_membership", "membership", [0], {
    types: MEMBERSHIP_TYPES,
    field: "end_date",
    direction: "after",
    conditions: [{ kind: "one_of", field: "membership_record_status", values: [CANCELLED_STATUS] }],
    about: "at the end date of a cancelled membership",
  }),
  _action("cancelling_membership", "membership", [null], { types: MEMBERSHIP_TYPES, about: "at the time of cancellation" }),
  _relative("expiring", "membership", ["1wk", "2wk", "3wk", "4wk", "6wk", "soon"], {
    types: MEMBERSHIP_TYPES,
    field: "end_date",
    direction: "before",
    conditions: [{ kind: "flag", field: "auto_renew", is: false }, NOT_RENEWED_OR_CANCELLED],
    about: "before the end date, when auto renew is not set",
  }),
  _relative("lapsed", "membership", ["1d", "1wk", "2wk", "3wk", "4wk", "90d", "180d"], {
    types: MEMBERSHIP_TYPES,
    field: "end_date",
    direction: "after",
    conditions: [NOT_RENEWED_OR_CANCELLED],
    about: "after the end date, when not renewed",
  }),
  _action("linked_member", "membership", ["added", "removed", "added_no_useraccount"], {
    types: ["person"],
    about: "the linked member is the entity",
  }),
  _relative("new_membership", "membership", ["1d", "2d", "1wk", "2wk", "3wk", "4wk", "180d"], {
    types: MEMBERSHIP_TYPES,
    field: "start_date",
    direction: "after",
    conditions: [{ kind: "flag", field: "is_renewal", is: false }],
    about: "start date plus the variation, for a membership that is not a renewal",
  }),
  _action("renewal", "membership", ["confirmation"], { types: MEMBERSHIP_TYPES, about: "at the time of renewal" }),
  _relative("renewed_membership", "membership", ["1wk", "2wk"], {
    types: MEMBERSHIP_TYPES,
    field: "start_date",
    direction: "after",
    conditions: [{ kind: "flag", field: "is_renewal", is: true }],
    about: "start date plus the variation, for a membership that is a renewal",
  }),
  _relative("renewing", "membership", ["1wk", "2wk", "3wk", "4wk", "soon"], {
    types: MEMBERSHIP_TYPES,
    field: "end_date",
    direction: "before",
    conditions: [{ kind: "flag", field: "auto_renew", is: true }, NOT_RENEWED_OR_CANCELLED],
    extra: _deprecatedRenewing(),
    about: "before the end date, when auto renew is set",
  }),
  _relative("no_payment_membership", "membership", ["1d", "1wk", "2wk", "3wk", "4wk", "90d"], {
    types: MEMBERSHIP_TYPES,
    field: "start_date",
    direction: "after",
    conditions: [{ kind: "unpaid" }],
    about: "start date plus the variation, while no payment references the membership",
  }),

  // --- payment ---
  _payment("membership_payment_received", "payment references a membership"),
  _payment("order_payment_received", "reference is a booking"),
  _payment("ticket_payment_received", "reference is a ticket"),
  _payment("donation_payment_received", "reference is a donation"),
  _payment("reservation_payment_received", "reference is a reservation"),
  _payment("invoice_payment_received", "reference is an invoice"),
  _payment("payment_received", "reference is none of the above"),

  // --- other ---
  _action("application", "other", ["accepted", "rejected", "submitted"], { types: ["application"], about: "e.g. group membership" }),
  _action("email_undeliverable", "other", [null], { types: ["journal"], about: "failed email delivery" }),
  _action("enrichment", "other", [null], { types: ["person"], about: "when an enrichment token is used" }),
  _action("export", "other", [null], { about: "data export" }),
  _action("failed_login", "other", [null], { about: "a failed login" }),
  _relative("form_score_review_by", "other", [14, 7, 2, 1, 0, -1, -2, -7], {
    types: ["form_response"],
    field: "review_by",
    direction: "before",
    about: "2wk fires two weeks before the form response's review_by date",
  }),
  _action("form_score_expiry", "other", [null], { types: ["form_response"], about: "when a form score expires" }),
  _action("direct_debit_provider", "other", ["sync", "error"], { about: "events from the direct debit provider" }),
  _action("login", "other", [null], { about: "a successful login" }),
  _action("multiple_failed_login", "other", [null], { about: "multiple failures within a short window" }),
  _action("email_marketing_provider", "other", ["open", "click", "bounce", "sent", "unsubscribe", "sync"], {
    types: ["person"],
    about: "events from the email marketing provider",
  }),
  _action("mandate", "other", ["active", "created", "cancelled", "failed", "pending_customer_approval", "pending_submission", "submitted"], {
    types: ["mandate"],
    field: "date",
    about: "events from the direct debit provider",
  }),
  _action("commerce_plugin", "other", ["sync", "error"], { about: "events from the commerce plugin" }),
];

/**
 * Builds a catalogue and its trigger-name index. Throws if two (event, variation) pairs
 * would share a trigger name.
 *
 * @example
 * createCatalogue(myEntries).triggers.get("expiring_2wk")?.variation.fireOffsetDays // -14
 */
export function createCatalogue(events: readonly EventEntry[]): Catalogue {
  const triggers = new Map<string, { entry: EventEntry; variation: VariationEntry }>();
  const byEvent = new Map<string, EventEntry>();
  for (const entry of events) {
    if (byEvent.has(entry.event)) throw new Error(`event catalogue: event ${entry.event} is listed twice`);
    byEvent.set(entry.event, entry);
    for (const variation of entry.variations) {
      const name = variation.name === null ? entry.event : `${entry.event}_${variation.name}`;
      if (triggers.has(name)) throw new Error(`event catalogue: trigger name ${name} is produced twice`);
      triggers.set(name, { entry, variation });
    }
  }
  return {
    events: Object.freeze([...events]),
    triggers,
    event: (name) => byEvent.get(name),
  };
}

/** The catalogue of the spec's events. */
export const EVENT_CATALOGUE: Catalogue = createCatalogue(ENTRIES);

// --- internal ---

interface _RelativeOptions {
  types: readonly string[];
  field: string;
  direction: "before" | "after";
  conditions?: readonly EventCondition[];
  /** Variations beyond the table's modifiers (the deprecated renewing families). */
  extra?: readonly VariationEntry[];
  about: string;
}

function _relative(event: string, group: EventGroup, cells: readonly (number | string)[], o: _RelativeOptions): EventEntry {
  const extra = (o.extra ?? []).map((v) => ({ ...v, fireOffsetDays: _fireOffset(v.offsetDays!, o.direction) }));
  return {
    event,
    group,
    timing: "relative",
    resourceTypes: o.types,
    dateField: o.field,
    direction: o.direction,
    conditions: o.conditions ?? [],
    variations: [...cells.map((cell) => _offsetVariation(cell, o.direction)), ...extra],
    patterns: [],
    deprecated: false,
    description: o.about,
  };
}

/** A variation from a table cell: a modifier word, or a number of days as the tables write them. */
function _offsetVariation(cell: number | string, direction: "before" | "after"): VariationEntry {
  const name = typeof cell === "number" ? modifierWord(cell) : cell;
  const days = modifierDays(name);
  if (days === undefined) throw new Error(`event catalogue: unknown modifier ${String(cell)}`);
  return { name, offsetDays: days, fireOffsetDays: _fireOffset(days, direction), deprecated: false, conditions: [] };
}

function _fireOffset(days: number, direction: "before" | "after"): number {
  // `0 - 0` would give -0; keep a plain 0.
  return direction === "before" && days !== 0 ? -days : days;
}

interface _ActionOptions {
  types?: readonly string[];
  field?: string;
  patterns?: readonly VariationPattern[];
  about: string;
}

function _action(event: string, group: EventGroup, names: readonly (string | null)[], o: _ActionOptions): EventEntry {
  return {
    event,
    group,
    timing: "action",
    resourceTypes: o.types ?? [],
    dateField: o.field ?? null,
    direction: null,
    conditions: [],
    variations: names.map((name) => ({ name, offsetDays: null, fireOffsetDays: null, deprecated: false, conditions: [] })),
    patterns: o.patterns ?? [],
    deprecated: false,
    description: o.about,
  };
}

function _payment(event: string, description: string): EventEntry {
  return _action(event, "payment", [null], { types: ["payment"], field: "payment_date", about: description });
}

function _daily(event: string, description: string): EventEntry {
  return { ..._action(event, "general", ["daily"], { about: description }), timing: "daily" };
}

/**
 * The deprecated families `renewing_{1wk,2wk,3wk,4wk,soon}_no_dd_mandate` and `..._commerce`:
 * same timing as `renewing_*`, narrowed to memberships without a direct debit mandate, or
 * sold through the commerce plugin (`source` = `commerce`).
 */
function _deprecatedRenewing(): VariationEntry[] {
  const families: [string, EventCondition][] = [
    ["no_dd_mandate", { kind: "flag", field: "has_direct_debit_mandate", is: false }],
    ["commerce", { kind: "one_of", field: "source", values: ["commerce"] }],
  ];
  return families.flatMap(([suffix, condition]) =>
    ["1wk", "2wk", "3wk", "4wk", "soon"].map((word) => ({
      name: `${word}_${suffix}`,
      offsetDays: modifierDays(word)!,
      fireOffsetDays: null,
      deprecated: true,
      conditions: [condition],
    })),
  );
}
