import { describe, expect, it } from "vitest";
import type { StoredRecord } from "../model/record.js";
import { isContactUri, relatedContactUri } from "./contact.js";

const ID = "0123456789abcdef01234567";
const P = `/demo/person/${ID}/`;

function rec(type: string, data: Record<string, unknown>, flock = "demo"): StoredRecord {
  return { id: "00000000000000000000000a", flock, type, state: "updated", data, displayValue: "", created: "", lastUpdated: "", version: 1 };
}

describe("relatedContactUri", () => {
  it("is the record itself for a contact, else its first contact field of the same flock", () => {
    expect(relatedContactUri(rec("person", {}))).toBe("/demo/person/00000000000000000000000a/");
    expect(relatedContactUri(rec("reservation", { buyer_ref: P }))).toBe(P);
    expect(relatedContactUri(rec("membership", { member: `/demo/organisation/${ID}` }))).toBe(`/demo/organisation/${ID}/`);
    expect(relatedContactUri(rec("reservation", { buyer_ref: `/other/person/${ID}/` }))).toBeNull();
    expect(relatedContactUri(rec("reservation", { buyer_ref: `/demo/ticket/${ID}/` }))).toBeNull();
  });

  it("for a payment, names the record its event was chosen by, to be followed one step", () => {
    const m = `/demo/membership/${ID}/`;
    expect(relatedContactUri(rec("payment", { membership_ref: m, ticket_ref: `/demo/ticket/${ID}/`, person_ref: P }))).toBe(m);
    expect(relatedContactUri(rec("payment", { invoice_ref: `/demo/invoice/${ID}` }))).toBe(`/demo/invoice/${ID}/`);
    expect(isContactUri(m)).toBe(false);
    // No reference: its own contact field; a reference to another flock is not followed.
    expect(relatedContactUri(rec("payment", { amount: 1, person_ref: P }))).toBe(P);
    expect(relatedContactUri(rec("payment", { membership_ref: `/other/membership/${ID}/` }))).toBeNull();
    expect(relatedContactUri(rec("payment", { amount: 1 }))).toBeNull();
    expect(isContactUri(P)).toBe(true);
    expect(isContactUri("not a uri")).toBe(false);
  });
});
