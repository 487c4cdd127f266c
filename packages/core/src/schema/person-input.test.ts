import { describe, expect, it } from "vitest";
import { errorOf } from "../query/test-helpers.js";
import * as v from "valibot";
import { PersonInputSchema, personValue, REFUSED, validatePersonInput } from "./person-input.js";
import { PERSON_FIELDS } from "./person.js";
import { normalizeReference } from "./references.js";

const URI = "/demo/person/0123456789abcdef01234567/";

describe("validatePersonInput: accepted values", () => {
  it.each([
    { kind: "text", input: { first_name: "Ada" }, expected: { first_name: "Ada" } },
    { kind: "text null", input: { notes: null }, expected: { notes: null } },
    { kind: "text empty", input: { notes: "" }, expected: { notes: "" } },
    { kind: "boolean", input: { deceased: true, test: false }, expected: { deceased: true, test: false } },
    { kind: "boolean null", input: { adult: null }, expected: { adult: null } },
    { kind: "flag", input: { hide_from_views: true }, expected: { hide_from_views: true } },
    { kind: "date", input: { date_of_birth: "1815-12-10" }, expected: { date_of_birth: "1815-12-10" } },
    {
      kind: "date as timestamp",
      input: { member_since: "2020-01-02T03:04:05.123456" },
      expected: { member_since: "2020-01-02T03:04:05.123456" },
    },
    { kind: "date timestamp without fraction", input: { anniversary: "2020-01-02T03:04:05" }, expected: { anniversary: "2020-01-02T03:04:05" } },
    { kind: "date null", input: { date_of_death: null }, expected: { date_of_death: null } },
    { kind: "json object", input: { geo: { lat: 51.5, lng: -0.1 } }, expected: { geo: { lat: 51.5, lng: -0.1 } } },
    { kind: "json number", input: { geo: 3 }, expected: { geo: 3 } },
    { kind: "integration", input: { accounting_uid: "X-1" }, expected: { accounting_uid: "X-1" } },
    { kind: "handle", input: { social1_username: "@ada" }, expected: { social1_username: "@ada" } },
    { kind: "list", input: { tags: ["a", "b"] }, expected: { tags: ["a", "b"] } },
    { kind: "list null", input: { email: null }, expected: { email: null } },
    { kind: "list drops nulls", input: { email: [null, "a@x.org;home", null] }, expected: { email: ["a@x.org;home"] } },
    { kind: "list [null] is unset", input: { telephone: [null] }, expected: { telephone: null } },
    { kind: "empty list is unset", input: { tags: [] }, expected: { tags: null } },
    { kind: "reference object in a text field", input: { source: { display_value: "Ada", ref: URI } }, expected: { source: URI } },
    { kind: "reference objects in a list", input: { connections: [{ ref: URI }, `${URI};mother`] }, expected: { connections: [URI, `${URI};mother`] } },
    { kind: "undefined is left out", input: { first_name: undefined, last_name: "L" }, expected: { last_name: "L" } },
    { kind: "nothing", input: {}, expected: {} },
  ])("$kind", ({ input, expected }) => {
    expect(validatePersonInput(input as Record<string, unknown>)).toEqual(expected);
  });
});

describe("validatePersonInput: refused values", () => {
  it.each([
    { kind: "text as number", input: { first_name: 5 }, detail: "first_name: expected text or null" },
    { kind: "text as boolean", input: { notes: true }, detail: "notes: expected text or null" },
    { kind: "text as list", input: { last_name: ["a"] }, detail: "last_name: expected text or null" },
    { kind: "boolean as string", input: { deceased: "yes" }, detail: "deceased: expected true, false or null" },
    { kind: "boolean as number", input: { test: 1 }, detail: "test: expected true, false or null" },
    { kind: "flag null", input: { hide_from_views: null }, detail: "hide_from_views: expected true or false" },
    { kind: "flag string", input: { hide_from_views: "false" }, detail: "hide_from_views: expected true or false" },
    { kind: "date text", input: { date_of_birth: "10 Dec 1815" }, detail: "date_of_birth: expected a date (YYYY-MM-DD)" },
    { kind: "date impossible", input: { date_of_birth: "1815-02-31" }, detail: "date_of_birth: expected a date" },
    { kind: "date number", input: { member_since: 2020 }, detail: "member_since: expected a date" },
    { kind: "date with zone", input: { anniversary: "2020-01-02T03:04:05Z" }, detail: "anniversary: expected a date" },
    { kind: "integration number", input: { retail_uid: 7 }, detail: "retail_uid: expected text or null" },
    { kind: "handle object", input: { messaging_username: {} }, detail: "messaging_username: expected text or null" },
    { kind: "list string", input: { email: "a@x.org" }, detail: "email: expected a list of strings or null" },
    { kind: "list of numbers", input: { tags: ["a", 2] }, detail: "tags: expected a list of strings or null" },
    { kind: "reference with extra keys", input: { source: { ref: URI, x: 1 } }, detail: "source: expected text or null" },
  ])("$kind", ({ input, detail }) => {
    const e = errorOf(() => validatePersonInput(input));
    expect(e.code).toBe("bad_request");
    expect(e.message).toBe("invalid field value");
    expect(e.detail).toContain(detail);
  });

  it("names every bad field in one detail", () => {
    const e = errorOf(() => validatePersonInput({ first_name: 1, deceased: "x", tags: "y", last_name: "ok" }));
    expect(e.detail).toBe(
      "first_name: expected text or null; deceased: expected true, false or null; tags: expected a list of strings or null",
    );
  });

  it("names every unknown field", () => {
    const e = errorOf(() => validatePersonInput({ first_name: "Ada", favourite: 1, shoe_size: 2 }));
    expect(e).toMatchObject({ code: "bad_request", message: "unknown fields" });
    expect(e.detail).toContain("'favourite'");
    expect(e.detail).toContain("'shoe_size'");
    expect(e.detail).not.toContain("first_name");
  });

  it.each(["constructor", "toString", "hasOwnProperty", "valueOf"])("treats the inherited object name %s as an unknown field", (name) => {
    const e = errorOf(() => validatePersonInput({ [name]: "x" }));
    expect(e).toMatchObject({ code: "bad_request", message: "unknown fields" });
    expect(e.detail).toContain(`'${name}'`);
  });

  it.each([
    ["formatted_name", "editable_formatted_name"],
    ["salutation", "editable_salutation"],
    ["sortable_name", "last_name and first_name"],
  ])("refuses the system-generated %s, pointing to %s", (field, instead) => {
    const e = errorOf(() => validatePersonInput({ [field]: "x" }));
    expect(e).toMatchObject({ code: "bad_request", message: "system-generated field" });
    expect(e.detail).toContain(`'${field}'`);
    expect(e.detail).toContain(instead);
  });

  it("refuses a system-generated field even when null", () => {
    expect(errorOf(() => validatePersonInput({ formatted_name: null })).message).toBe("system-generated field");
  });
});

describe("personValue: the fast path agrees with valibot's schema", () => {
  // Values of every shape, tried in every field kind: where valibot accepts one, personValue
  // gives the same output; where valibot refuses one, personValue refuses it too.
  const values: unknown[] = [
    null, undefined, "", "Ada", "1815-12-10", "2020-01-02T03:04:05.123456", "2020-01-02T03:04:05Z", "1815-02-31",
    true, false, 0, 1.5, -3, [], [null], ["a"], ["a", null, "b"], [1], [["a"]], [{ ref: URI }], [undefined],
    {}, { lat: 1 }, { ref: URI }, { display_value: "Ada", ref: URI }, { ref: "nope" },
  ];
  const kinds = [...new Set(Object.values(PERSON_FIELDS))];
  const cases = kinds.flatMap((kind) => values.map((value, i) => ({ kind, value, i })));
  it.each(cases)("$kind #$i", ({ kind, value }) => {
    const field = Object.keys(PERSON_FIELDS).find((f) => PERSON_FIELDS[f] === kind)!;
    const input = normalizeReference(value);
    const slow = v.safeParse(PersonInputSchema, { [field]: input });
    const fast = personValue(kind, input);
    if (slow.success && input !== undefined) expect(fast).toEqual((slow.output as Record<string, unknown>)[field]);
    else if (input !== undefined) expect(fast).toBe(REFUSED);
  });

  it("returns a new list, as valibot does", () => {
    const list = ["a", "b"];
    const out = validatePersonInput({ tags: list }).tags;
    expect(out).toEqual(list);
    expect(out).not.toBe(list);
  });

  it("leaves out keys set to undefined (the valibot path)", () => {
    expect(Object.keys(validatePersonInput({ first_name: "Ada", last_name: undefined }))).toEqual(["first_name"]);
  });
});
