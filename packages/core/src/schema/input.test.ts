import { describe, expect, it } from "vitest";
import { MAX_TEXT_VALUE_LENGTH } from "../query/limits.js";
import { validateInput } from "./input.js";

const URI = "/demo/person/0123456789abcdef01234567/";

describe("validateInput", () => {
  it.each([
    { name: "any JSON fields", body: { a: 1, b: [1, "x"], c: { d: null }, e: true }, expected: { a: 1, b: [1, "x"], c: { d: null }, e: true } },
    { name: "reference object stored as URI", body: { contact_ref: { display_value: "Ada", ref: URI } }, expected: { contact_ref: URI } },
    { name: "reference objects inside a list", body: { people: [{ ref: URI }] }, expected: { people: [URI] } },
    { name: "an object with ref that is not a URI is kept", body: { x: { ref: "nope" } }, expected: { x: { ref: "nope" } } },
    { name: "underscore names", body: { _x: 1, A_b9: 2 }, expected: { _x: 1, A_b9: 2 } },
    { name: "empty body", body: {}, expected: {} },
  ])("open type: $name", ({ body, expected }) => {
    expect(validateInput("journal", body)).toEqual(expected);
  });

  it.each([
    { name: "array body", body: [1] },
    { name: "null body", body: null },
    { name: "string body", body: "x" },
  ])("refuses a $name", ({ body }) => {
    expect(() => validateInput("journal", body)).toThrow("invalid body");
    expect(() => validateInput("person", body)).toThrow("invalid body");
  });

  it("names every bad field name", () => {
    try {
      validateInput("journal", { ok: 1, "bad-name": 1, "9x": 2, "a b": 3 });
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: "bad_request", message: "invalid field name" });
      expect((e as { detail: string }).detail).toMatch(/^"bad-name", "9x", "a b": /);
    }
  });

  it("uses the closed schema for person", () => {
    expect(() => validateInput("person", { nope: 1 })).toThrow("unknown fields");
    expect(validateInput("person", { first_name: "Ada" })).toEqual({ first_name: "Ada" });
  });

  const long = "x".repeat(MAX_TEXT_VALUE_LENGTH + 1);
  it.each([
    { name: "a number JSON parsed as Infinity", type: "journal", body: { n: JSON.parse("1e400") as number }, detail: /"n": a number too large/ },
    { name: "a negative infinity inside a list", type: "journal", body: { l: [1, -Infinity] }, detail: /"l": a number too large/ },
    { name: "a text past the limit", type: "journal", body: { notes: long }, detail: /"notes": a text of 262145 characters/ },
    { name: "a long text nested in an object", type: "journal", body: { o: { p: [long] } }, detail: /"o": a text of/ },
    { name: "a long person field", type: "person", body: { notes: long }, detail: /"notes": a text of/ },
  ])("refuses $name", ({ type, body, detail }) => {
    expect(() => validateInput(type, body)).toThrow(expect.objectContaining({ code: "bad_request", detail: expect.stringMatching(detail) }));
  });

  it("accepts a text exactly at the limit", () => {
    const atLimit = "x".repeat(MAX_TEXT_VALUE_LENGTH);
    expect(validateInput("journal", { notes: atLimit })).toEqual({ notes: atLimit });
  });
});
