import { describe, expect, it } from "vitest";
import { createCatalogue, EVENT_CATALOGUE } from "./catalogue.js";
import { MODIFIERS, modifierDays, modifierWord } from "./modifiers.js";
import type { EventEntry } from "./types.js";
import { isEngineField } from "../model/field-index.js";
import { PAYMENT_PRECEDENCE } from "./payment.js";

/**
 * The spec's event tables, copied as literal data: event, variations as the table writes
 * them (numbers are days, as in the general and "other" tables), and the group. The
 * catalogue must hold exactly these, with these offsets.
 */
const SPEC_TABLES: { event: string; group: string; variations: (string | number | null)[] }[] = [
  // General data events
  { event: "action_required_summary", group: "general", variations: ["daily"] },
  { event: "donation", group: "general", variations: ["pledge"] },
  { event: "no_payment_invoice", group: "general", variations: [180, 90, 28, 7] },
  { event: "contact", group: "general", variations: ["created"] },
  { event: "evidence_draft_reference", group: "general", variations: ["1wk", "2wk", "3wk"] },
  { event: "form_response", group: "general", variations: ["created", "submitted", "withdrawn", "scoring_complete"] },
  { event: "reservation", group: "general", variations: ["created", "cancelled"] },
  { event: "ticket", group: "general", variations: ["confirmation"] },
  { event: "ticketed_event", group: "general", variations: [7, 1, 0, -1, -2, -7, -14, -28, -90] },
  { event: "vm_start", group: "general", variations: [7, 1, 0, -1, -2, -7, -14, -21, -28, -30, -90] },
  { event: "achievement", group: "general", variations: ["completed"] },
  // Membership data events
  { event: "cancelled_membership", group: "membership", variations: [null] },
  { event: "cancelling_membership", group: "membership", variations: [null] },
  { event: "expiring", group: "membership", variations: ["1wk", "2wk", "3wk", "4wk", "6wk", "soon"] },
  { event: "lapsed", group: "membership", variations: ["1d", "1wk", "2wk", "3wk", "4wk", "90d", "180d"] },
  { event: "linked_member", group: "membership", variations: ["added", "removed", "added_no_useraccount"] },
  { event: "new_membership", group: "membership", variations: ["1d", "2d", "1wk", "2wk", "3wk", "4wk", "180d"] },
  { event: "renewal", group: "membership", variations: ["confirmation"] },
  { event: "renewed_membership", group: "membership", variations: ["1wk", "2wk"] },
  { event: "renewing", group: "membership", variations: ["1wk", "2wk", "3wk", "4wk", "soon"] },
  { event: "no_payment_membership", group: "membership", variations: ["1d", "1wk", "2wk", "3wk", "4wk", "90d"] },
  // Payment events
  { event: "membership_payment_received", group: "payment", variations: [null] },
  { event: "order_payment_received", group: "payment", variations: [null] },
  { event: "ticket_payment_received", group: "payment", variations: [null] },
  { event: "donation_payment_received", group: "payment", variations: [null] },
  { event: "reservation_payment_received", group: "payment", variations: [null] },
  { event: "invoice_payment_received", group: "payment", variations: [null] },
  { event: "payment_received", group: "payment", variations: [null] },
  // Other data events
  { event: "application", group: "other", variations: ["accepted", "rejected", "submitted"] },
  { event: "email_undeliverable", group: "other", variations: [null] },
  { event: "enrichment", group: "other", variations: [null] },
  { event: "export", group: "other", variations: [null] },
  { event: "failed_login", group: "other", variations: [null] },
  { event: "form_score_review_by", group: "other", variations: [14, 7, 2, 1, 0, -1, -2, -7] },
  { event: "form_score_expiry", group: "other", variations: [null] },
  { event: "direct_debit_provider", group: "other", variations: ["sync", "error"] },
  { event: "login", group: "other", variations: [null] },
  { event: "multiple_failed_login", group: "other", variations: [null] },
  { event: "email_marketing_provider", group: "other", variations: ["open", "click", "bounce", "sent", "unsubscribe", "sync"] },
  {
    event: "mandate",
    group: "other",
    variations: ["active", "created", "cancelled", "failed", "pending_customer_approval", "pending_submission", "submitted"],
  },
  { event: "commerce_plugin", group: "other", variations: ["sync", "error"] },
];

/** The spec's general modifier table. */
const SPEC_MODIFIERS: [number, string | null][] = [
  [180, "180d"], [90, "90d"], [28, "4wk"], [21, "3wk"], [14, "2wk"], [7, "1wk"], [1, "1d"], [0, null],
  [-1, "minus_1d"], [-2, "minus_2d"], [-7, "minus_1wk"], [-14, "minus_2wk"], [-21, "minus_3wk"],
  [-28, "minus_4wk"], [-90, "minus_90d"], [-180, "minus_180d"],
];

/** Days of the words the spec uses outside the general table, as decided. */
const EXTRA_WORDS: Record<string, number> = { "6wk": 42, "2d": 2, soon: 3, minus_30d: -30 };

const DEPRECATED = ["no_dd_mandate", "commerce"].flatMap((suffix) =>
  ["1wk", "2wk", "3wk", "4wk", "soon"].map((w) => `renewing_${w}_${suffix}`),
);

function specName(event: string, cell: string | number | null): string {
  const word = typeof cell === "number" ? modifierWord(cell) : cell;
  return word === null ? event : `${event}_${word}`;
}

function entry(event: string): EventEntry {
  const e = EVENT_CATALOGUE.event(event);
  if (!e) throw new Error(`no catalogue entry for ${event}`);
  return e;
}

describe("the general modifier table", () => {
  it.each(SPEC_MODIFIERS)("%i days is %s", (days, word) => {
    expect(modifierWord(days)).toBe(word);
    expect(modifierDays(word)).toBe(days);
  });

  it.each(Object.entries(EXTRA_WORDS))("decided word %s is %i days", (word, days) => {
    expect(modifierDays(word)).toBe(days);
    expect(MODIFIERS.find((m) => m.word === word)?.inSpecTable).toBe(false);
  });

  it("refuses a number no modifier stands for", () => {
    expect(() => modifierWord(5)).toThrow(/5 days/);
    expect(modifierDays("5d")).toBeUndefined();
  });
});

describe("the catalogue against the spec's tables", () => {
  it("holds exactly the spec's events", () => {
    expect(EVENT_CATALOGUE.events.map((e) => e.event).sort()).toEqual(SPEC_TABLES.map((t) => t.event).sort());
  });

  it.each(SPEC_TABLES)("$event: group $group and every variation", ({ event, group, variations }) => {
    const e = entry(event);
    expect(e.group).toBe(group);
    const expected = variations.map((cell) => specName(event, cell));
    const actual = e.variations.filter((v) => !v.deprecated).map((v) => (v.name === null ? event : `${event}_${v.name}`));
    expect(actual).toEqual(expected);
  });

  it.each(SPEC_TABLES.filter((t) => entry(t.event).timing === "relative"))(
    "$event: offsets are the modifier's days",
    ({ event, variations }) => {
      const e = entry(event);
      variations.forEach((cell, i) => {
        const v = e.variations[i]!;
        const days = typeof cell === "number" ? cell : (modifierDays(cell) ?? EXTRA_WORDS[cell!]);
        expect(v.offsetDays).toBe(days ?? 0);
        const sign = e.direction === "before" ? -1 : 1;
        expect(v.fireOffsetDays).toBe(v.offsetDays === 0 ? 0 : sign * v.offsetDays!);
      });
    },
  );

  it("has the deprecated renewing families, marked deprecated, timed like renewing_*", () => {
    for (const name of DEPRECATED) {
      const t = EVENT_CATALOGUE.triggers.get(name);
      expect(t, name).toBeDefined();
      expect(t!.variation.deprecated).toBe(true);
      const base = EVENT_CATALOGUE.triggers.get(name.replace(/_(no_dd_mandate|commerce)$/, ""))!;
      expect(t!.variation.fireOffsetDays).toBe(base.variation.fireOffsetDays);
    }
    expect([...EVENT_CATALOGUE.triggers.values()].filter((t) => t.variation.deprecated)).toHaveLength(DEPRECATED.length);
  });
});

describe("directions, dates and conditions", () => {
  it.each([
    // name, fire offset in days, field counted from, resource type
    ["expiring_2wk", -14, "end_date", "member"],
    ["expiring_6wk", -42, "end_date", "membership"],
    ["expiring_soon", -3, "end_date", "member"],
    ["lapsed_90d", 90, "end_date", "member"],
    ["lapsed_1d", 1, "end_date", "membership"],
    ["renewing_4wk", -28, "end_date", "member"],
    ["renewing_soon", -3, "end_date", "member"],
    ["cancelled_membership", 0, "end_date", "member"],
    ["new_membership_1wk", 7, "start_date", "member"],
    ["new_membership_2d", 2, "start_date", "member"],
    ["renewed_membership_2wk", 14, "start_date", "membership"],
    ["no_payment_membership_90d", 90, "start_date", "member"],
    ["no_payment_invoice_4wk", 28, "date", "invoice"],
    ["ticketed_event_1wk", -7, "start_date", "ticket"],
    ["ticketed_event", 0, "start_date", "ticketed_event"],
    ["ticketed_event_minus_2wk", 14, "start_date", "ticket"],
    ["vm_start_minus_30d", 30, "start_date", "booking"],
    ["vm_start_1d", -1, "start_date", "booking"],
    ["evidence_draft_reference_3wk", 21, "created", "evidence"],
    ["form_score_review_by_2d", -2, "review_by", "form_response"],
    ["form_score_review_by_minus_1wk", 7, "review_by", "form_response"],
  ] as const)("%s fires %i days from %s of a %s", (name, offset, field, type) => {
    const t = EVENT_CATALOGUE.triggers.get(name)!;
    expect(t.entry.timing).toBe("relative");
    expect(t.variation.fireOffsetDays).toBe(offset);
    expect(t.entry.dateField).toBe(field);
    expect(t.entry.resourceTypes).toContain(type);
  });

  it.each([
    ["contact_created", "person"],
    ["contact_created", "organisation"],
    ["reservation_created", "reservation"],
    ["reservation_cancelled", "reservation"],
    ["cancelling_membership", "member"],
    ["membership_payment_received", "payment"],
    ["payment_received", "payment"],
    ["login", null],
    ["failed_login", null],
    ["multiple_failed_login", null],
    ["ticket_confirmation", "ticket"],
    ["donation_pledge", "pledge"],
  ])("%s is emitted at the time of the action (about %s)", (name, type) => {
    const t = EVENT_CATALOGUE.triggers.get(name)!;
    expect(t.entry.timing).toBe("action");
    expect(t.variation.offsetDays).toBeNull();
    if (type) expect(t.entry.resourceTypes).toContain(type);
    else expect(t.entry.resourceTypes).toEqual([]);
  });

  it("has the daily summary", () => {
    expect(EVENT_CATALOGUE.triggers.get("action_required_summary_daily")?.entry.timing).toBe("daily");
  });

  it.each([
    ["expiring", { kind: "flag", field: "auto_renew", is: false }],
    ["renewing", { kind: "flag", field: "auto_renew", is: true }],
    ["lapsed", { kind: "not_one_of", field: "membership_record_status", values: ["renewed", "cancelled"] }],
    ["cancelled_membership", { kind: "one_of", field: "membership_record_status", values: ["cancelled"] }],
    ["no_payment_membership", { kind: "unpaid" }],
    ["no_payment_invoice", { kind: "unpaid" }],
    ["new_membership", { kind: "flag", field: "is_renewal", is: false }],
    ["renewed_membership", { kind: "flag", field: "is_renewal", is: true }],
  ])("%s has its condition", (event, condition) => {
    expect(entry(event).conditions).toContainEqual(condition);
  });
});

describe("createCatalogue", () => {
  it("refuses an event listed twice", () => {
    const e = entry("login");
    expect(() => createCatalogue([e, e])).toThrow(/login is listed twice/);
  });

  it("refuses two pairs with one trigger name", () => {
    const a = { ...entry("login"), event: "a_b", variations: [{ ...entry("login").variations[0]!, name: "c" }] };
    const b = { ...entry("login"), event: "a", variations: [{ ...entry("login").variations[0]!, name: "b_c" }] };
    expect(() => createCatalogue([a, b])).toThrow(/a_b_c is produced twice/);
  });
});

describe("the fields the scheduler filters on", () => {
  // A filter on a field without an index scans its collection: every field the scheduler
  // reads by filter must be one the service looks up itself (indexed, never dropped).
  const relative = EVENT_CATALOGUE.events.filter((e) => e.timing === "relative" && e.dateField !== null && e.dateField !== "created");
  const read: [string, string][] = [
    ...relative.flatMap((e) => e.resourceTypes.map((t) => [t, e.dateField!] as [string, string])),
    ...PAYMENT_PRECEDENCE.map((p) => ["payment", p.field] as [string, string]),
    ["data_event", "expires_at"],
  ];

  it("includes form_response.review_by (form_score_review_by)", () => {
    expect(read).toContainEqual(["form_response", "review_by"]);
  });

  it.each(read)("%s.%s is an engine field", (type, field) => {
    expect(isEngineField(type, field)).toBe(true);
  });
});
