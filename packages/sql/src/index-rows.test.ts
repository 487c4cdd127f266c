import { describe, expect, it } from "vitest";
import { isStampText, refTargets, stampNeedle, valueRows } from "./index-rows.js";

describe("valueRows", () => {
  it.each([
    { name: "null", value: null, expected: [] },
    { name: "absent", value: undefined, expected: [] },
    { name: "a string", value: "Ada", expected: [{ kind: 0, text: "Ada", folded: "ada", num: null }] },
    // The folded form is kept only where folding changes the text.
    { name: "an accented capital", value: "Ärzte", expected: [{ kind: 0, text: "Ärzte", folded: "ärzte", num: null }] },
    { name: "a dotted capital I (longer folded)", value: "İz", expected: [{ kind: 0, text: "İz", folded: "i\u0307z", num: null }] },
    { name: "lower case already, with ß", value: "straße", expected: [{ kind: 0, text: "straße", folded: null, num: null }] },
    { name: "a number", value: 2.5, expected: [{ kind: 1, text: "2.5", folded: null, num: 2.5 }] },
    { name: "a boolean", value: false, expected: [{ kind: 2, text: "false", folded: null, num: null }] },
    { name: "an object", value: { a: "X" }, expected: [{ kind: 3, text: '{"a":"X"}', folded: '{"a":"x"}', num: null }] },
    {
      name: "a list with duplicates and nulls",
      value: ["a;home", null, "a;home", 3, "3"],
      expected: [
        { kind: 0, text: "a;home", folded: null, num: null },
        { kind: 1, text: "3", folded: null, num: 3 },
        { kind: 0, text: "3", folded: null, num: null },
      ],
    },
    { name: "NaN", value: Number.NaN, expected: [] },
    // A timestamp keeps no folded form: it differs only in the T (isStampText).
    { name: "a timestamp", value: "2026-11-29T11:50:00.000000", expected: [{ kind: 0, text: "2026-11-29T11:50:00.000000", folded: null, num: null }] },
    { name: "a T with a letter after it", value: "2026-11-29Ta", expected: [{ kind: 0, text: "2026-11-29Ta", folded: "2026-11-29ta", num: null }] },
    { name: "a timestamp with a zone", value: "2026-11-29T11:50Z", expected: [{ kind: 0, text: "2026-11-29T11:50Z", folded: "2026-11-29t11:50z", num: null }] },
  ])("$name", ({ value, expected }) => {
    expect(valueRows(value)).toEqual(expected);
  });
});

describe("isStampText", () => {
  it.each([
    ["2026-11-29T11:50:00.000000", true],
    ["2026-11-29T", true],
    ["2026-11-29", false],
    ["2026-11-29t11:50", false],
    ["2026-11-29T11:50Z", false],
    ["2026-11-29 11:50", false],
    ["20261-1-29T11", false],
    ["x2026-11-29T1", false],
    ["2026-11-29T١", false],
  ])("%s: %s", (text, expected) => {
    expect(isStampText(text)).toBe(expected);
  });
});

describe("stampNeedle", () => {
  it.each([
    { needle: "29t11:5", prefix: false, expected: "29T11:5" },
    { needle: "2026-11-29t1", prefix: true, expected: "2026-11-29T1" },
    { needle: "6-11-29t1", prefix: true, expected: undefined }, // a prefix's t must be the eleventh character
    { needle: "2026-11-29", prefix: true, expected: undefined }, // no t: the text range finds it
    { needle: "t1t", prefix: false, expected: undefined }, // a timestamp's folded form holds one t
    { needle: "t", prefix: false, expected: "T" },
  ])("$needle (prefix $prefix)", ({ needle, prefix, expected }) => {
    expect(stampNeedle(needle, prefix)).toBe(expected);
  });
});

describe("refTargets", () => {
  const uri = "/demo/person/0123456789abcdef01234567/";
  it.each([
    { name: "a scalar URI", data: { member: uri }, expected: [uri] },
    { name: "a scalar with a label keeps only the whole value", data: { member: `${uri};x` }, expected: [`${uri};x`] },
    { name: "a list entry with a label", data: { connections: [`${uri};friend`] }, expected: [`${uri};friend`, uri] },
    { name: "a list entry without a label", data: { connections: [uri, uri] }, expected: [uri] },
    { name: "strings that are not paths", data: { a: "ada", b: ["x;/y"], c: 3, d: null }, expected: [] },
    { name: "nested objects are not references", data: { a: { ref: uri } }, expected: [] },
  ])("$name", ({ data, expected }) => {
    expect(refTargets({ type: "membership", data })).toEqual(expected);
  });

  it("gives a data event none: its context_ref is what it is about, not a reference", () => {
    expect(refTargets({ type: "data_event", data: { context_ref: uri, tags: [uri] } })).toEqual([]);
  });
});
