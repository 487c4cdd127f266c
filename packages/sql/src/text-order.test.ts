import { describe, expect, it } from "vitest";
import { orderSafeHead, prefixUpperBound } from "./text-order.js";

describe("prefixUpperBound", () => {
  it.each([
    { prefix: "abc", expected: "abd" },
    { prefix: "a", expected: "b" },
    { prefix: "a\u{10FFFF}", expected: "b" },
    { prefix: "a\u{10FFFF}\u{10FFFF}", expected: "b" },
    { prefix: "\u{10FFFF}", expected: undefined },
    { prefix: "", expected: undefined },
    { prefix: "x\uD7FF", expected: "x\uE000" }, // skips the surrogate block
    { prefix: "x\uFFFF", expected: "x\u{10000}" },
    { prefix: "𝒜", expected: "𝒝" },
  ])("$prefix -> $expected", ({ prefix, expected }) => {
    expect(prefixUpperBound(prefix)).toBe(expected);
  });
});

describe("orderSafeHead", () => {
  it.each([
    { s: "abc", expected: "abc" },
    { s: "ab\uE000c", expected: "ab" },
    { s: "a𝒜", expected: "a" },
    { s: "\uFFFF", expected: "" },
    { s: "a\uD7FFb", expected: "a\uD7FFb" },
  ])("$s -> $expected", ({ s, expected }) => {
    expect(orderSafeHead(s)).toBe(expected);
  });
});
