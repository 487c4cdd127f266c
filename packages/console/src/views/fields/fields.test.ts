import { describe, expect, it } from "vitest";
import { kindOf, labelOf, referenceTarget, titleOf } from "./describe.js";
import { idOfUri, membershipTitle } from "./membership-titles.js";
import { editOf, sameEdit, valueOf } from "./value.js";

describe("labelOf", () => {
  it.each([
    ["date_of_birth", "Date of birth"],
    ["person_ref", "Person"],
    ["iso_country", "ISO country"],
    ["card_processor_uid", "Card processor UID"],
    ["formatted_name", "Full name"],
  ])("%s is %j", (field, label) => expect(labelOf(field)).toBe(label));
});

describe("kindOf", () => {
  it.each([
    ["person", "formatted_name", "Ada Lovelace", "derived"],
    ["person", "email_opt_out", null, "boolean"],
    ["person", "date_of_birth", null, "date"],
    ["person", "tags", [null], "list"],
    ["person", "geo", null, "json"],
    ["person", "notes", null, "longtext"],
    ["person", "first_name", "Ada", "text"],
    ["membership", "member", undefined, "reference"],
    ["payment", "membership_ref", "/demo/membership/0123456789abcdef01234567/", "reference"],
    ["booking", "start_date", undefined, "date"],
    ["widget", "size", 3, "number"],
    ["widget", "seen", true, "boolean"],
    ["widget", "when", "2026-01-02", "date"],
    ["widget", "labels", ["a", "b"], "list"],
    ["widget", "shape", { a: 1 }, "json"],
    ["widget", "name", "x", "text"],
  ])("%s.%s holding %j is %s", (type, field, value, kind) => expect(kindOf(type, field, value)).toBe(kind));

  it("reads the target type of a reference from its URI, else from the field's name", () => {
    expect(referenceTarget("journal", "about", { display_value: "A", ref: "/demo/organisation/0123456789abcdef01234567/" })).toBe("organisation");
    expect(referenceTarget("booking", "person_ref", null)).toBe("person");
    expect(referenceTarget("booking", "title", "Spring walk")).toBeUndefined();
  });
});

describe("edits and values", () => {
  it("turns stored values into widget edits and back", () => {
    expect(editOf("list", [null])).toEqual([]);
    expect(valueOf("list", ["vip", "donor"], [null])).toEqual({ value: ["vip", "donor"] });
    expect(editOf("reference", { display_value: "Ada", ref: "/d/person/0123456789abcdef01234567/" })).toEqual({ uri: "/d/person/0123456789abcdef01234567/", label: "Ada" });
    expect(valueOf("reference", null, undefined)).toEqual({ value: null });
    expect(editOf("boolean", null)).toBe(false);
    expect(valueOf("boolean", true, null)).toEqual({ value: true });
    expect(valueOf("number", "12.50", 1)).toEqual({ value: 12.5 });
    expect(valueOf("number", "twelve", 1).error).toMatch(/number/);
    expect(valueOf("json", "{oops", null).error).toMatch(/JSON/);
    expect(valueOf("text", "", "Ada")).toEqual({ value: null });
  });

  it("keeps a timestamp's time when only its day was shown and left alone", () => {
    const stored = "2026-01-02T10:00:00.000000";
    expect(editOf("date", stored)).toBe("2026-01-02");
    expect(valueOf("date", "2026-01-02", stored)).toEqual({ value: stored });
    expect(valueOf("date", "2026-01-03", stored)).toEqual({ value: "2026-01-03" });
  });

  it("compares edits by value: an untouched list or reference is not a change", () => {
    expect(sameEdit(["a"], ["a"])).toBe(true);
    expect(sameEdit({ uri: "/x/", label: "A" }, { uri: "/x/", label: "B" })).toBe(true);
    expect(sameEdit(null, "")).toBe(true);
    expect(sameEdit("a", "b")).toBe(false);
  });
});

describe("titleOf", () => {
  it("titles a membership by its plan and member, anything else by its display value", () => {
    expect(titleOf("membership", { membership_type: "Family", member: { display_value: "Ada Lovelace", ref: "/d/person/x/" } }, "an empty membership")).toBe("Family — Ada Lovelace");
    expect(titleOf("member", { member: { display_value: "Ada Lovelace", ref: "/d/person/x/" } }, "")).toBe("Membership — Ada Lovelace");
    expect(titleOf("membership", { name: "Full member", member: { display_value: "Ada Lovelace", ref: "/d/person/x/" } }, "")).toBe("Full member — Ada Lovelace");
    expect(titleOf("membership", { member: "/d/person/0123456789abcdef01234567/" }, "an empty membership")).toBe("Membership");
    expect(titleOf("person", {}, "Ada Lovelace")).toBe("Ada Lovelace");
  });
});

describe("membershipTitle", () => {
  it("names a list row's bare member URI from the batch of names, and leaves other types alone", () => {
    const names = new Map([["0123456789abcdef01234567", "Grace Hopper"]]);
    expect(membershipTitle("membership", { member: "/d/person/0123456789abcdef01234567/" }, "an empty membership", names)).toBe("Membership — Grace Hopper");
    expect(membershipTitle("membership", { membership_type: "Life", member: "/d/person/ffffffffffffffffffffffff/" }, "", names)).toBe("Life");
    expect(membershipTitle("payment", { member: "/d/person/0123456789abcdef01234567/" }, "a payment", names)).toBe("a payment");
    expect(idOfUri("/d/person/0123456789abcdef01234567/")).toBe("0123456789abcdef01234567");
    expect(idOfUri("not a uri")).toBeUndefined();
  });
});
