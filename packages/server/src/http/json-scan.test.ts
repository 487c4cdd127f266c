import { describe, expect, it } from "vitest";
import { checkJsonText } from "./json-scan.js";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "./limits.js";

/** `{"a":[0,0,...]}` holding exactly `n` values: the root, the member `a` and n - 2 entries. */
const withValues = (n: number) => `{"a":[${new Array(n - 2).fill(0).join(",")}]}`;
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("checkJsonText", () => {
  it.each([
    ["exactly MAX_JSON_VALUES values", withValues(MAX_JSON_VALUES)],
    ["exactly MAX_JSON_DEPTH levels", nested(MAX_JSON_DEPTH)],
    ["brackets, commas, colons and escaped quotes inside strings", JSON.stringify({ a: '[{,:}]\\"'.repeat(50_000) })],
    ["a string ending in an escaped backslash", JSON.stringify({ a: "x\\", b: ["y"] })],
    ["empty lists and objects", '{"a": [], "b": {}, "c": [[], {}]}'],
    ["malformed JSON (left for JSON.parse to name)", '{"a": [1, 2'],
    ["an unclosed string", '{"a": "never closed'],
  ])("accepts %s", (_name, text) => {
    expect(() => checkJsonText(text)).not.toThrow();
  });

  it.each([
    ["one value past MAX_JSON_VALUES", withValues(MAX_JSON_VALUES + 1), "too many values"],
    ["object members past it", `{${Array.from({ length: MAX_JSON_VALUES }, (_, i) => `"k${i}":0`).join(",")}}`, "too many values"],
    ["a megabyte of empty objects", `[${"{},".repeat(349_000)}{}]`, "too many values"],
    ["one level past MAX_JSON_DEPTH", nested(MAX_JSON_DEPTH + 1), "body too deeply nested"],
    ["a million levels", nested(1_000_000), "body too deeply nested"],
  ])("refuses %s", (_name, text, error) => {
    expect(() => checkJsonText(text)).toThrow(expect.objectContaining({ code: "bad_request", message: error }));
  });

  it("counts each list entry and object member once, containers included", () => {
    // 9 values: the root, a, 1, [2, 3], 2, 3, {"b": null}, b, c.
    const text = '{"a": [1, [2, 3], {"b": null}], "c": "x,y:z"}';
    const values = 9;
    // Padding the list to the bound shows the count: exactly MAX_JSON_VALUES passes, one more does not.
    const padded = (extra: number) => text.replace("[1,", `[${new Array(extra).fill(1).join(",")}, 1,`);
    expect(() => checkJsonText(padded(MAX_JSON_VALUES - values))).not.toThrow();
    expect(() => checkJsonText(padded(MAX_JSON_VALUES - values + 1))).toThrow(expect.objectContaining({ message: "too many values" }));
  });
});
