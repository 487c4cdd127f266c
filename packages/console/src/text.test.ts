import { describe, expect, it } from "vitest";
import { countOf, decodeOr, encodePart, textOf } from "./text.js";

describe("decodeOr", () => {
  it.each([
    { input: "caf%C3%A9.pdf", expected: "café.pdf" },
    { input: "%E0%A4%A", expected: "%E0%A4%A" },
    { input: "%", expected: "%" },
    { input: "%zz", expected: "%zz" },
    { input: "%C0%80", expected: "%C0%80" },
    { input: "%ED%A0%80", expected: "%ED%A0%80" },
    { input: "plain", expected: "plain" },
  ])("$input → $expected", ({ input, expected }) => {
    expect(decodeOr(input)).toBe(expected);
  });
});

describe("encodePart", () => {
  it.each([
    { input: "a/b c", expected: "a%2Fb%20c" },
    { input: "\ud800", expected: "%EF%BF%BD" },
    { input: "x\udc00y", expected: "x%EF%BF%BDy" },
    { input: "𝕏", expected: "%F0%9D%95%8F" },
  ])("$input → $expected", ({ input, expected }) => {
    expect(encodePart(input)).toBe(expected);
  });
});

describe("textOf", () => {
  it.each([
    { name: "a string as it is", input: "<b>%E0%A4%A</b>", expected: "<b>%E0%A4%A</b>" },
    { name: "null", input: null, expected: "" },
    { name: "absent", input: undefined, expected: "" },
    { name: "a number", input: 1e308, expected: "1e+308" },
    { name: "an object", input: { ref: { x: 1 } }, expected: '{"ref":{"x":1}}' },
    { name: "a list", input: [1, "a"], expected: '[1,"a"]' },
    { name: "a boolean", input: false, expected: "false" },
    { name: "a cycle", input: (() => { const o: Record<string, unknown> = {}; o.o = o; return o; })(), expected: "[object Object]" },
  ])("$name", ({ input, expected }) => {
    expect(textOf(input)).toBe(expected);
  });
});

describe("countOf", () => {
  it.each([
    { input: 3, expected: 3 },
    { input: "3", expected: undefined },
    { input: Number.NaN, expected: undefined },
    { input: Infinity, expected: undefined },
    { input: { a: 1 }, expected: undefined },
  ])("$input → $expected", ({ input, expected }) => {
    expect(countOf(input)).toBe(expected);
  });
});
