import { describe, expect, it } from "vitest";
import { RecordsError } from "../errors.js";
import { EVENT_CATALOGUE } from "./catalogue.js";
import { findTrigger, listTriggerNames, parseTriggerName, suggestTriggerNames, triggerName } from "./trigger-names.js";

describe("parseTriggerName", () => {
  it.each([
    { name: "expiring_2wk", event: "expiring", variation: "2wk", offsetDays: 14, fireOffsetDays: -14 },
    { name: "lapsed_90d", event: "lapsed", variation: "90d", offsetDays: 90, fireOffsetDays: 90 },
    { name: "new_membership_1wk", event: "new_membership", variation: "1wk", offsetDays: 7, fireOffsetDays: 7 },
    { name: "no_payment_membership_1d", event: "no_payment_membership", variation: "1d", offsetDays: 1, fireOffsetDays: 1 },
    { name: "no_payment_invoice_180d", event: "no_payment_invoice", variation: "180d", offsetDays: 180, fireOffsetDays: 180 },
    { name: "ticketed_event_minus_2wk", event: "ticketed_event", variation: "minus_2wk", offsetDays: -14, fireOffsetDays: 14 },
    { name: "ticketed_event", event: "ticketed_event", variation: null, offsetDays: 0, fireOffsetDays: 0 },
    { name: "vm_start_minus_30d", event: "vm_start", variation: "minus_30d", offsetDays: -30, fireOffsetDays: 30 },
    { name: "cancelled_membership", event: "cancelled_membership", variation: null, offsetDays: 0, fireOffsetDays: 0 },
    { name: "contact_created", event: "contact", variation: "created", offsetDays: null, fireOffsetDays: null },
    { name: "login", event: "login", variation: null, offsetDays: null, fireOffsetDays: null },
    { name: "payment_received", event: "payment_received", variation: null, offsetDays: null, fireOffsetDays: null },
    { name: "mandate_pending_customer_approval", event: "mandate", variation: "pending_customer_approval", offsetDays: null, fireOffsetDays: null },
    { name: "renewing_soon_commerce", event: "renewing", variation: "soon_commerce", offsetDays: 3, fireOffsetDays: -3 },
  ])("$name → $event / $variation", ({ name, ...expected }) => {
    const p = parseTriggerName(name);
    expect({ event: p.event, variation: p.variation, offsetDays: p.offsetDays, fireOffsetDays: p.fireOffsetDays }).toEqual(expected);
    expect(p.name).toBe(name);
    expect(p.entry.event).toBe(expected.event);
  });

  it.each([
    ["reservation_state_pending_to_confirmed", "reservation", "state_pending_to_confirmed"],
    ["reservation_state_in_review_to_done", "reservation", "state_in_review_to_done"],
    ["form_response_state_shortlisted", "form_response", "state_shortlisted"],
  ])("pattern variation %s", (name, event, variation) => {
    const p = parseTriggerName(name);
    expect(p.event).toBe(event);
    expect(p.variation).toBe(variation);
    expect(p.variationEntry).toBeNull();
  });

  it.each([
    ["renewing_1wk_no_dd_mandate", true],
    ["renewing_1wk", false],
  ])("%s deprecated: %s", (name, deprecated) => {
    expect(parseTriggerName(name).deprecated).toBe(deprecated);
  });

  it.each([
    { name: "contact_create", suggests: "contact_created" },
    { name: "expiring_5wk", suggests: "expiring_4wk" },
    { name: "Expiring_2wk", suggests: "expiring_2wk" },
    { name: "lapsed_2d", suggests: "lapsed_1d" },
    { name: "new_membership_300d", suggests: "new_membership_1d" },
    { name: "ticketed_event_minus_1", suggests: "ticketed_event_minus_1d" },
    { name: "contact_state_a_to_b", suggests: "contact_created" },
    { name: "expiring_", suggests: "expiring_1wk" },
  ])("refuses $name, suggesting $suggests", ({ name, suggests }) => {
    let error: unknown;
    try {
      parseTriggerName(name);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RecordsError);
    const err = error as RecordsError;
    expect(err.code).toBe("bad_request");
    expect(err.status).toBe(400);
    expect(err.detail).toContain(`"${name}"`);
    expect(err.detail).toContain(suggests);
  });

  it.each(["", "nonsense_event", "reservation_state_", "reservation_state_A_to_B", "login_1wk", "_created"])(
    "refuses %j",
    (name) => {
      expect(() => parseTriggerName(name)).toThrow(RecordsError);
      expect(findTrigger(name)).toBeUndefined();
    },
  );

  it("says where to look when nothing is close", () => {
    expect(() => parseTriggerName("zzzzzzzzzzzzzzzzzzzzzzzzzz")).toThrow(
      expect.objectContaining({ detail: expect.stringMatching(/^unknown trigger "z+": see docs\/events.md/) }),
    );
  });
});

describe("triggerName", () => {
  it.each([
    ["lapsed", "90d", "lapsed_90d"],
    ["login", null, "login"],
    ["ticketed_event", "minus_1d", "ticketed_event_minus_1d"],
    ["reservation", "state_a_to_b", "reservation_state_a_to_b"],
  ])("(%s, %s) → %s", (event, variation, name) => {
    expect(triggerName(event, variation)).toBe(name);
  });

  it.each([
    ["lapsed", "5wk"],
    ["no_payment", "membership_1wk"],
    ["login", "1d"],
  ])("refuses (%s, %s)", (event, variation) => {
    expect(() => triggerName(event, variation)).toThrow(RecordsError);
  });
});

describe("listTriggerNames", () => {
  it("lists every fixed name once, and each one parses back", () => {
    const names = listTriggerNames();
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(EVENT_CATALOGUE.triggers.size);
    for (const name of names) expect(parseTriggerName(name).name).toBe(name);
  });

  it("leaves deprecated names out on request", () => {
    const names = listTriggerNames({ includeDeprecated: false });
    expect(names).toContain("renewing_1wk");
    expect(names).not.toContain("renewing_1wk_no_dd_mandate");
    expect(listTriggerNames().length - names.length).toBe(10);
  });
});

describe("suggestTriggerNames", () => {
  it("returns at most three, closest first", () => {
    const s = suggestTriggerNames("lapsed_3wk_");
    expect(s[0]).toBe("lapsed_3wk");
    expect(s.length).toBeLessThanOrEqual(3);
  });
});
