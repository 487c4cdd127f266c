import { describe, expect, it } from "vitest";
import type { RecordWrite } from "../model/change-set.js";
import type { StoredRecord } from "../model/record.js";
import { planEvents, recordEvents } from "./emit.js";
import { changedFieldNames, updateWrite } from "../records/revise.js";

const NOW = new Date("2026-03-01T12:00:00Z");

function rec(type: string, data: Record<string, unknown> = {}, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: "0123456789abcdef01234567",
    flock: "demo",
    type,
    state: "updated",
    data,
    displayValue: "x",
    created: "2026-03-01T12:00:00.000000",
    lastUpdated: "2026-03-01T12:00:00.000000",
    version: 1,
    ...over,
  };
}

const T = "/demo/ticket/0123456789abcdef0123abcd/";
const M = "/demo/membership/0123456789abcdef0123abcd/";

describe("recordEvents: creation", () => {
  it.each([
    { name: "person", type: "person", data: {}, expected: ["contact_created"] },
    { name: "organisation", type: "organisation", data: {}, expected: ["contact_created"] },
    { name: "reservation", type: "reservation", data: {}, expected: ["reservation_created"] },
    { name: "reservation created cancelled is not a cancellation", type: "reservation", data: { status: "cancelled" }, expected: ["reservation_created"] },
    { name: "ticket", type: "ticket", data: {}, expected: ["ticket_confirmation"] },
    { name: "donation", type: "donation", data: {}, expected: ["donation_pledge"] },
    { name: "pledge", type: "pledge", data: {}, expected: ["donation_pledge"] },
    { name: "form_response", type: "form_response", data: {}, expected: ["form_response_created"] },
    { name: "form_response submitted at once", type: "form_response", data: { status: "Submitted" }, expected: ["form_response_created", "form_response_submitted"] },
    { name: "achievement not complete", type: "achievement", data: { status: "open" }, expected: [] },
    { name: "achievement complete at once", type: "achievement", data: { completed: true }, expected: ["achievement_completed"] },
    { name: "application submitted", type: "application", data: { status: "submitted" }, expected: ["application_submitted"] },
    { name: "application without status", type: "application", data: {}, expected: [] },
    { name: "mandate", type: "mandate", data: {}, expected: ["mandate_created"] },
    { name: "mandate active at once", type: "mandate", data: { status: "active" }, expected: ["mandate_created", "mandate_active"] },
    { name: "membership", type: "membership", data: {}, expected: [] },
    { name: "member renewal", type: "member", data: { is_renewal: "true" }, expected: ["renewal_confirmation"] },
    { name: "membership created cancelled is not a cancellation", type: "membership", data: { membership_record_status: "cancelled" }, expected: [] },
    { name: "unknown type", type: "widget", data: { status: "cancelled" }, expected: [] },
  ])("$name", ({ type, data, expected }) => {
    expect(recordEvents(null, rec(type, data))).toEqual(expected);
  });
});

describe("recordEvents: payments emit one event by precedence", () => {
  it.each([
    { name: "no reference", data: { amount: 5 }, expected: "payment_received" },
    { name: "membership beats ticket", data: { membership_ref: M, ticket_ref: T }, expected: "membership_payment_received" },
    { name: "ticket beats donation, reservation, invoice", data: { ticket_ref: T, donation_ref: T, reservation_ref: T, invoice_ref: T }, expected: "ticket_payment_received" },
    { name: "donation beats reservation", data: { donation_ref: T, reservation_ref: T }, expected: "donation_payment_received" },
    { name: "reservation beats invoice", data: { reservation_ref: T, invoice_ref: T }, expected: "reservation_payment_received" },
    { name: "invoice beats booking", data: { invoice_ref: T, booking_ref: T }, expected: "invoice_payment_received" },
    { name: "booking", data: { booking_ref: T }, expected: "order_payment_received" },
    { name: "blank references do not count", data: { membership_ref: " ", ticket_ref: null, booking_ref: T }, expected: "order_payment_received" },
  ])("$name", ({ data, expected }) => {
    expect(recordEvents(null, rec("payment", data))).toEqual([expected]);
  });

  it("an updated payment emits nothing", () => {
    expect(recordEvents(rec("payment", { amount: 5 }), rec("payment", { amount: 6, ticket_ref: T }))).toEqual([]);
  });
});

describe("recordEvents: changes", () => {
  it.each([
    { name: "reservation cancelled", type: "reservation", from: { status: null }, to: { status: "cancelled" }, expected: ["reservation_cancelled"] },
    { name: "reservation cancelled, case and spaces ignored", type: "reservation", from: {}, to: { status: " Cancelled " }, expected: ["reservation_cancelled"] },
    { name: "reservation stays cancelled", type: "reservation", from: { status: "cancelled" }, to: { status: "cancelled", name: "x" }, expected: [] },
    { name: "membership cancelling", type: "membership", from: { membership_record_status: "active" }, to: { membership_record_status: "cancelled" }, expected: ["cancelling_membership"] },
    { name: "member cancelling", type: "member", from: {}, to: { membership_record_status: "cancelled" }, expected: ["cancelling_membership"] },
    { name: "membership renewed is not cancelling", type: "membership", from: {}, to: { membership_record_status: "renewed" }, expected: [] },
    { name: "an update of a person emits nothing", type: "person", from: { first_name: "A" }, to: { first_name: "B" }, expected: [] },
    { name: "form_response withdrawn", type: "form_response", from: { status: "submitted" }, to: { status: "withdrawn" }, expected: ["form_response_withdrawn"] },
    { name: "form_response scoring complete", type: "form_response", from: { status: "withdrawn" }, to: { status: "scoring_complete" }, expected: ["form_response_scoring_complete"] },
    { name: "form_response other status", type: "form_response", from: {}, to: { status: "draft" }, expected: [] },
    { name: "achievement completed by status", type: "achievement", from: { status: "open" }, to: { status: "completed" }, expected: ["achievement_completed"] },
    { name: "achievement completed by flag", type: "achievement", from: { completed: false }, to: { completed: 1 }, expected: ["achievement_completed"] },
    { name: "achievement stays completed", type: "achievement", from: { completed: true }, to: { completed: true, note: "x" }, expected: [] },
    { name: "application accepted", type: "application", from: { status: "submitted" }, to: { status: "accepted" }, expected: ["application_accepted"] },
    { name: "application rejected", type: "application", from: { status: "submitted" }, to: { status: "rejected" }, expected: ["application_rejected"] },
    { name: "mandate failed", type: "mandate", from: { status: "active" }, to: { status: "failed" }, expected: ["mandate_failed"] },
    { name: "mandate to created is no second creation", type: "mandate", from: { status: "x" }, to: { status: "created" }, expected: [] },
  ])("$name", ({ type, from, to, expected }) => {
    expect(recordEvents(rec(type, from), rec(type, to, { version: 2 }))).toEqual(expected);
  });
});

describe("planEvents", () => {
  const insert = (r: StoredRecord): RecordWrite => ({ kind: "insert", record: r });
  const update = (before: StoredRecord, after: StoredRecord, withBefore = true): RecordWrite =>
    withBefore ? updateWrite(before, after) : { kind: "update", record: after, expectedVersion: before.version, changed: changedFieldNames(before.data, after.data) };

  it("plans one event per write with its context URI and the commit time", () => {
    const plan = planEvents([insert(rec("person")), insert(rec("payment", { ticket_ref: T }, { id: "0123456789abcdef0123aaaa" }))], NOW);
    expect(plan).toEqual({
      events: [
        { flock: "demo", name: "contact_created", contextUri: "/demo/person/0123456789abcdef01234567/", fireAt: "2026-03-01T12:00:00.000000" },
        { flock: "demo", name: "ticket_payment_received", contextUri: "/demo/payment/0123456789abcdef0123aaaa/", fireAt: "2026-03-01T12:00:00.000000" },
      ],
      requeue: [],
    });
  });

  it("writes of data events, core events and journal records emit nothing", () => {
    const plan = planEvents(
      [insert(rec("data_event", { name: "contact_created", tags: [] })), insert(rec("core_event", { tag: "queued" })), insert(rec("journal", { kind: "email" }))],
      NOW,
    );
    expect(plan).toEqual({ events: [], requeue: [] });
  });

  it("a write that leaves the record deleted emits nothing; an update without before is not compared", () => {
    const before = rec("reservation", {});
    const after = rec("reservation", { status: "cancelled" }, { version: 2 });
    expect(planEvents([update(before, { ...after, state: "deleted" })], NOW).events).toEqual([]);
    expect(planEvents([update(before, after, false)], NOW).events).toEqual([]);
    expect(planEvents([update(before, after)], NOW).events.map((e) => e.name)).toEqual(["reservation_cancelled"]);
  });

  it("removing action tags from a data event asks for those actions again", () => {
    const before = rec("data_event", { name: "contact_created", tags: ["send-json-webhook", "send-templated-email"] });
    const after = rec("data_event", { name: "contact_created", tags: ["send-templated-email"] }, { version: 2 });
    expect(planEvents([update(before, after)], NOW)).toEqual({
      events: [],
      requeue: [{ flock: "demo", dataEventId: before.id, trigger: "contact_created", actions: ["send-json-webhook"] }],
    });
  });

  it("takes the trigger from before, never from the patched record", () => {
    const before = rec("data_event", { name: "contact_created", tags: ["send-json-webhook"] });
    const forged = rec("data_event", { name: "lapsed_90d", tags: [] }, { version: 2 });
    expect(planEvents([update(before, forged)], NOW).requeue).toEqual([
      { flock: "demo", dataEventId: before.id, trigger: "contact_created", actions: ["send-json-webhook"] },
    ]);
    const unnamed = rec("data_event", { tags: ["send-json-webhook"] });
    expect(planEvents([update(unnamed, { ...forged })], NOW).requeue).toEqual([]);
  });

  it("adding a tag, or removing one from a deleted data event, asks for nothing", () => {
    const before = rec("data_event", { name: "contact_created", tags: [] });
    const tagged = rec("data_event", { name: "contact_created", tags: ["send-json-webhook"] }, { version: 2 });
    expect(planEvents([update(before, tagged)], NOW).requeue).toEqual([]);
    expect(planEvents([update(tagged, { ...before, state: "deleted", version: 3 })], NOW).requeue).toEqual([]);
  });
});
