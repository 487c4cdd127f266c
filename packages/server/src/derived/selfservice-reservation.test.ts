import { RecordsError, type StoredRecord } from "@records-service/core";
import { describe, expect, it } from "vitest";
import {
  CANCELLATION_REASON_MAX_LENGTH,
  cancellationPatch,
  isOwnReservation,
  reservationReferences,
  toListReservation,
  toReservationList,
  toSingleReservation,
} from "./selfservice-reservation.js";

const ID = "0000000000000000000000a1";
const ADA = "/demo/person/000000000000000000000001/";
const GRACE = "/demo/person/000000000000000000000002/";
const COURT = "/demo/bookable/0000000000000000000000b1/";

function reservation(data: Record<string, unknown>, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: ID,
    flock: "demo",
    type: "reservation",
    state: "updated",
    data,
    displayValue: "an empty reservation",
    created: "2026-01-15T10:00:00.000000",
    lastUpdated: "2026-01-15T10:00:00.000000",
    version: 1,
    ...over,
  };
}

const FULL = reservation({
  active: true,
  bookable_ref: COURT,
  booking_ref: [],
  buyer_ref: ADA,
  currency: "GBP",
  start_datetime: "2026-03-01T10:00:00.000000",
  end_datetime: "2026-03-01T11:30:00.000000",
  enquiry: false,
  fee: 12.5,
  formatted_title: "Court 1, Sunday morning",
  name: "Court 1",
  number_of_attendees: 2,
  pricing: "full_price",
  status: null,
  tags: ["self-service"],
  tax: 2.08,
  tax_rate: 20,
  notes: "staff only: do not show",
});

const TABLE_FIELDS = [
  "uid", "uri", "active", "bookable_ref", "booking_ref", "buyer_ref", "currency", "start_datetime", "end_datetime",
  "enquiry", "fee", "formatted_title", "name", "number_of_attendees", "pricing", "status", "tags", "tax", "tax_rate",
];

describe("toListReservation", () => {
  it("has exactly the spec's fields, references as URIs, times without fraction", () => {
    expect(toListReservation(FULL)).toEqual({
      uid: ID,
      uri: `/demo/reservation/${ID}/`,
      active: true,
      bookable_ref: COURT,
      booking_ref: [],
      buyer_ref: ADA,
      currency: "gbp",
      start_datetime: "2026-03-01T10:00:00",
      end_datetime: "2026-03-01T11:30:00",
      enquiry: false,
      fee: 12.5,
      formatted_title: "Court 1, Sunday morning",
      name: "Court 1",
      number_of_attendees: 2,
      pricing: "full_price",
      status: null,
      tags: ["self-service"],
      tax: 2.08,
      tax_rate: 20,
    });
  });

  it("gives absent fields null, lists [], and no cancellation_reason", () => {
    const shaped = toListReservation(reservation({}));
    expect(Object.keys(shaped)).toEqual(TABLE_FIELDS);
    expect(shaped).toMatchObject({ bookable_ref: null, buyer_ref: null, booking_ref: [], tags: [], fee: null, status: null, formatted_title: "" });
  });

  it.each([
    { name: "spec format with fraction", stored: "2026-03-01T10:00:00.123456", served: "2026-03-01T10:00:00" },
    { name: "already without fraction", stored: "2026-03-01T10:00:00", served: "2026-03-01T10:00:00" },
    { name: "without seconds", stored: "2026-03-01T10:00", served: "2026-03-01T10:00:00" },
    { name: "space separator", stored: "2026-03-01 10:00:05", served: "2026-03-01T10:00:05" },
    { name: "a date only", stored: "2026-03-01", served: "2026-03-01T00:00:00" },
    { name: "UTC suffix", stored: "2026-03-01T10:00:00Z", served: "2026-03-01T10:00:00" },
    { name: "an offset, served in UTC", stored: "2026-03-01T10:00:00+01:00", served: "2026-03-01T09:00:00" },
    { name: "not a time, as stored", stored: "next Tuesday", served: "next Tuesday" },
    { name: "an impossible date, as stored", stored: "2026-02-31T10:00:00", served: "2026-02-31T10:00:00" },
    { name: "null", stored: null, served: null },
  ])("start_datetime: $name", ({ stored, served }) => {
    expect(toListReservation(reservation({ start_datetime: stored })).start_datetime).toBe(served);
  });

  it.each([
    { name: "a URI with a label", stored: `${COURT};Court 1`, served: COURT },
    { name: "a reference object", stored: { display_value: "Court 1", ref: COURT }, served: COURT },
    { name: "an empty string", stored: "", served: null },
    { name: "an object without ref", stored: { display_value: "x" }, served: null },
  ])("bookable_ref stored as $name", ({ stored, served }) => {
    expect(toListReservation(reservation({ bookable_ref: stored })).bookable_ref).toEqual(served);
  });

  it.each([
    { name: "one tag as text", stored: "vip", served: ["vip"] },
    { name: "null entries", stored: ["a", null, "b"], served: ["a", "b"] },
  ])("tags stored as $name", ({ stored, served }) => {
    expect(toListReservation(reservation({ tags: stored })).tags).toEqual(served);
  });

  it.each([
    { name: "given", stored: "can't make it", present: true },
    { name: "empty", stored: "", present: false },
    { name: "blank", stored: "  ", present: false },
    { name: "null", stored: null, present: false },
  ])("cancellation_reason $name: present $present", ({ stored, present }) => {
    const shaped = toListReservation(reservation({ status: "cancelled", cancellation_reason: stored }));
    expect("cancellation_reason" in shaped).toBe(present);
    if (present) expect(shaped.cancellation_reason).toBe(stored);
  });

  it.each([
    { name: "formatted_title", data: { formatted_title: "T", name: "N" }, display: "D", expected: "T" },
    { name: "name when no title", data: { name: "N" }, display: "D", expected: "N" },
    { name: "display value when neither", data: {}, display: "Tennis, 1 March", expected: "Tennis, 1 March" },
    { name: "empty for the placeholder", data: {}, display: "an empty reservation", expected: "" },
  ])("formatted_title falls back: $name", ({ data, display, expected }) => {
    expect(toListReservation(reservation(data, { displayValue: display })).formatted_title).toBe(expected);
  });
});

describe("toSingleReservation", () => {
  it("expands references to {display_value, ref} and keeps the rest of the list form", () => {
    const names = new Map([
      [COURT, "Court 1"],
      [ADA, "Ada Lovelace"],
    ]);
    const single = toSingleReservation(FULL, names);
    expect(single.bookable_ref).toEqual({ display_value: "Court 1", ref: COURT });
    expect(single.buyer_ref).toEqual({ display_value: "Ada Lovelace", ref: ADA });
    const { bookable_ref: _b, buyer_ref: _u, ...rest } = single;
    const { bookable_ref: _lb, buyer_ref: _lu, ...listRest } = toListReservation(FULL);
    expect(rest).toEqual(listRest);
  });

  it.each([
    { name: "a lookup function", lookup: (uri: string) => (uri === ADA ? "Ada" : undefined), buyer: "Ada", bookable: "" },
    { name: "an empty map", lookup: new Map<string, string>(), buyer: "", bookable: "" },
  ])("accepts $name; unknown display values are empty", ({ lookup, buyer, bookable }) => {
    const single = toSingleReservation(FULL, lookup);
    expect(single.buyer_ref).toEqual({ display_value: buyer, ref: ADA });
    expect(single.bookable_ref).toEqual({ display_value: bookable, ref: COURT });
  });

  it("keeps an absent reference null", () => {
    expect(toSingleReservation(reservation({ buyer_ref: ADA }), new Map()).bookable_ref).toBeNull();
  });
});

describe("toReservationList and reservationReferences", () => {
  it("wraps list-form reservations with the caller's person URI", () => {
    const body = toReservationList(ADA, [FULL, reservation({ buyer_ref: ADA }, { id: "0000000000000000000000a2" })]);
    expect(body.person_uri).toBe(ADA);
    expect(body.reservations.map((r) => r.uid)).toEqual([ID, "0000000000000000000000a2"]);
    expect(body.reservations[0]!.bookable_ref).toBe(COURT);
  });

  it("an empty list is still a wrapper", () => {
    expect(toReservationList(ADA, [])).toEqual({ person_uri: ADA, reservations: [] });
  });

  it.each([
    { data: { bookable_ref: COURT, buyer_ref: ADA }, expected: [COURT, ADA] },
    { data: { bookable_ref: null, buyer_ref: `${ADA};me` }, expected: [ADA] },
    { data: { bookable_ref: ADA, buyer_ref: ADA }, expected: [ADA] },
    { data: {}, expected: [] },
  ])("references of $data", ({ data, expected }) => {
    expect(reservationReferences(reservation(data))).toEqual(expected);
  });
});

describe("isOwnReservation", () => {
  it.each([
    { name: "the caller's", record: reservation({ buyer_ref: ADA }), own: true },
    { name: "stored as a reference object", record: reservation({ buyer_ref: { ref: ADA } }), own: true },
    { name: "stored without trailing slash", record: reservation({ buyer_ref: ADA.slice(0, -1) }), own: true },
    { name: "another person's", record: reservation({ buyer_ref: GRACE }), own: false },
    { name: "without a buyer", record: reservation({}), own: false },
    { name: "deleted", record: reservation({ buyer_ref: ADA }, { state: "deleted" }), own: false },
    { name: "not a reservation", record: reservation({ buyer_ref: ADA }, { type: "booking" }), own: false },
  ])("$name → $own", ({ record, own }) => {
    expect(isOwnReservation(record, ADA)).toBe(own);
  });
});

describe("cancellationPatch", () => {
  it.each([
    { name: "no reason", reason: undefined, patch: { status: "cancelled" } },
    { name: "an empty reason", reason: "", patch: { status: "cancelled" } },
    { name: "a reason", reason: " ill ", patch: { status: "cancelled", cancellation_reason: "ill" } },
    { name: "a reason at the limit", reason: "x".repeat(CANCELLATION_REASON_MAX_LENGTH), patch: { status: "cancelled", cancellation_reason: "x".repeat(CANCELLATION_REASON_MAX_LENGTH) } },
  ])("cancels with $name", ({ reason, patch }) => {
    expect(cancellationPatch(FULL, reason)).toEqual(patch);
  });

  it.each([
    { name: "already cancelled", record: reservation({ status: "cancelled" }), reason: undefined, code: "conflict" },
    { name: "already Cancelled (case)", record: reservation({ status: " Cancelled" }), reason: "x", code: "conflict" },
    { name: "a reason too long", record: FULL, reason: "x".repeat(CANCELLATION_REASON_MAX_LENGTH + 1), code: "bad_request" },
  ])("refuses $name", ({ record, reason, code }) => {
    let error: unknown;
    try {
      cancellationPatch(record, reason);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RecordsError);
    expect((error as RecordsError).code).toBe(code);
  });
});
