import { describe, expect, it } from "vitest";
import { MAX_DISPLAY_VALUE_LENGTH } from "../query/limits.js";
import { cutDisplayValue, displayValueOf } from "./display.js";
import { newPersonData } from "./person.js";

describe("displayValueOf", () => {
  it.each([
    { name: "person: formatted name", type: "person", data: newPersonData({ first_name: "Ada", last_name: "Lovelace" }), expected: "Ada Lovelace" },
    { name: "person: editable formatted name", type: "person", data: newPersonData({ editable_formatted_name: "Lady L" }), expected: "Lady L" },
    { name: "person: empty", type: "person", data: newPersonData({}), expected: "an empty person" },
    { name: "person: known_as alone is not a name", type: "person", data: newPersonData({ known_as: "Ada" }), expected: "an empty person" },
    { name: "display_value first", type: "journal", data: { display_value: "D", name: "N", title: "T" }, expected: "D" },
    { name: "name", type: "organisation", data: { name: "Analytical Society", title: "T" }, expected: "Analytical Society" },
    { name: "formatted_name", type: "member", data: { formatted_name: "F", title: "T" }, expected: "F" },
    { name: "formatted_title", type: "reservation", data: { formatted_title: "Room 1", title: "T" }, expected: "Room 1" },
    { name: "title", type: "activity", data: { title: "Walk", subject: "S" }, expected: "Walk" },
    { name: "subject", type: "journal", data: { subject: "Call", membership_number: "M1" }, expected: "Call" },
    { name: "membership_number", type: "membership", data: { membership_number: "M-001" }, expected: "M-001" },
    { name: "numeric membership_number", type: "membership", data: { membership_number: 42 }, expected: "42" },
    { name: "skips empty and blank", type: "journal", data: { display_value: "", name: "  ", title: "T" }, expected: "T" },
    { name: "skips non-strings", type: "journal", data: { name: { x: 1 }, title: ["a"], subject: "S" }, expected: "S" },
    { name: "trims", type: "journal", data: { name: "  Padded " }, expected: "Padded" },
    { name: "placeholder", type: "journal", data: { other: "x" }, expected: "an empty journal" },
    { name: "placeholder with spaces", type: "payment_plan", data: {}, expected: "an empty payment plan" },
  ])("$name", ({ type, data, expected }) => {
    expect(displayValueOf(type, data)).toBe(expected);
  });
});

describe("cutDisplayValue: display values are short labels", () => {
  const max = MAX_DISPLAY_VALUE_LENGTH;
  it.each([
    { name: "at the bound: kept", text: "x".repeat(max), expected: "x".repeat(max) },
    { name: "one past it: cut with an ellipsis", text: "x".repeat(max + 1), expected: `${"x".repeat(max - 1)}…` },
    { name: "never inside a surrogate pair", text: `${"x".repeat(max - 2)}🐑🐑`, expected: `${"x".repeat(max - 2)}…` },
  ])("$name", ({ text, expected }) => {
    expect(cutDisplayValue(text)).toBe(expected);
    expect(cutDisplayValue(text).length).toBeLessThanOrEqual(max);
  });

  it("applies to derived display values of every type", () => {
    const long = "N".repeat(300_000);
    expect(displayValueOf("journal", { name: long })).toHaveLength(max);
    expect(displayValueOf("person", newPersonData({ first_name: long }))).toHaveLength(max);
  });
});
