import { describe, expect, it } from "vitest";
import { quoteForMessage, splitFilterKey } from "./split-key.js";
import { errorOf } from "./test-helpers.js";
import { MODIFIERS } from "../model/query.js";

describe("splitFilterKey", () => {
  it.each([
    { key: "last_name", field: "last_name", op: "eq" },
    { key: "_private", field: "_private", op: "eq" },
    { key: "A1", field: "A1", op: "eq" },
    { key: "x", field: "x", op: "eq" },
    { key: "tags__andlist", field: "tags", op: "andlist" },
    { key: "a__b__eq", field: "a__b", op: "eq" }, // split at the LAST `__`
    { key: "a___eq", field: "a_", op: "eq" },
    { key: "mode__eq", field: "mode", op: "eq" },
    { key: "f".repeat(128), field: "f".repeat(128), op: "eq" },
    ...MODIFIERS.map((op) => ({ key: `amount__${op}`, field: "amount", op })),
  ])("$key -> $field, $op", ({ key, field, op }) => {
    expect(splitFilterKey(key)).toEqual({ field, op });
  });

  it.each([
    { key: "first_name__foo", modifier: "foo" },
    { key: "first__name", modifier: "name" }, // a bare field cannot contain `__`
    { key: "name__", modifier: "" },
    { key: "name__EQ", modifier: "EQ" }, // modifiers are lower-case
    { key: "name__eq ", modifier: "eq " },
  ])("$key is an unknown modifier", ({ key, modifier }) => {
    const e = errorOf(() => splitFilterKey(key));
    expect(e.code).toBe("bad_request");
    expect(e.message).toBe("unknown modifier");
    expect(e.detail).toContain(JSON.stringify(modifier));
    for (const m of MODIFIERS) expect(e.detail).toContain(m);
  });

  it.each(["", "__eq", "1abc", "a-b", "a.b", "a b", "café", "data[x]", "f".repeat(129), "1a__gt"])(
    "%j has a bad field name",
    (key) => {
      const e = errorOf(() => splitFilterKey(key));
      expect(e.code).toBe("bad_request");
      expect(e.message).toBe("bad field name");
      expect(e.detail).toContain("letter");
    },
  );
});

describe("quoteForMessage", () => {
  it.each([
    { input: "abc", expected: '"abc"' },
    { input: 'a"b', expected: '"a\\"b"' },
    { input: "x".repeat(81), expected: `"${"x".repeat(80)}..."` },
  ])("$input", ({ input, expected }) => {
    expect(quoteForMessage(input)).toBe(expected);
  });
});
