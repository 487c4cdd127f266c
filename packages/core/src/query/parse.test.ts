import { describe, expect, it, vi } from "vitest";
import { MAX_FILTERS, MAX_VALUE_LENGTH, MAX_VALUES_PER_FILTER } from "./limits.js";
import { parseListQuery } from "./parse.js";
import { errorOf, parseQs, TEST_NOW } from "./test-helpers.js";
import { MODIFIERS, type Filter, type Modifier } from "../model/query.js";

/** Builds a query string from pairs, encoding each part (so commas, `&` and `=` survive). */
const qs = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();
const only = (q: string, opts = {}) => {
  const { filters } = parseQs(q, opts);
  expect(filters).toHaveLength(1);
  return filters[0]!;
};

describe("parseListQuery: filters", () => {
  it("returns no filters and the defaults for an empty query", () => {
    expect(parseListQuery([], { surface: "v1", now: TEST_NOW })).toEqual({
      filters: [],
      mode: "AND",
      states: ["updated"],
      page: 1,
      pageSize: 25,
    });
  });

  const SHAPES: { q: string; expected: Filter }[] = [
    { q: "last_name=Lovelace", expected: { field: "last_name", meta: false, op: "eq", values: [{ text: "Lovelace" }] } },
    { q: "last_name__eq=Lovelace", expected: { field: "last_name", meta: false, op: "eq", values: [{ text: "Lovelace" }] } },
    { q: "last_name__raw=Lovelace", expected: { field: "last_name", meta: false, op: "raw", values: [{ text: "Lovelace" }] } },
    { q: "last_name__ne=Lovelace", expected: { field: "last_name", meta: false, op: "ne", values: [{ text: "Lovelace" }] } },
    { q: "notes__contains=Ada", expected: { field: "notes", meta: false, op: "contains", values: [{ text: "Ada" }] } },
    { q: "notes__near=ada", expected: { field: "notes", meta: false, op: "near", values: [{ text: "ada" }] } },
    { q: "email__startswith=ada", expected: { field: "email", meta: false, op: "startswith", values: [{ text: "ada" }] } },
    { q: "email__startswithi=ADA", expected: { field: "email", meta: false, op: "startswithi", values: [{ text: "ADA" }] } },
    { q: "amount__gt=10", expected: { field: "amount", meta: false, op: "gt", values: [{ text: "10", number: 10 }] } },
    { q: "amount__gte=10.5", expected: { field: "amount", meta: false, op: "gte", values: [{ text: "10.5", number: 10.5 }] } },
    { q: "amount__lt=-3", expected: { field: "amount", meta: false, op: "lt", values: [{ text: "-3", number: -3 }] } },
    { q: "start_date__lte=2026-01-01", expected: { field: "start_date", meta: false, op: "lte", values: [{ text: "2026-01-01" }] } },
    { q: "tags__and=a", expected: { field: "tags", meta: false, op: "and", values: [{ text: "a" }] } },
    { q: "tags__or=a", expected: { field: "tags", meta: false, op: "or", values: [{ text: "a" }] } },
    { q: "tags__andlist=a,b", expected: { field: "tags", meta: false, op: "andlist", values: [{ text: "a" }, { text: "b" }] } },
    { q: "tags__orlist=a,b", expected: { field: "tags", meta: false, op: "orlist", values: [{ text: "a" }, { text: "b" }] } },
    { q: "tags__none=a,b", expected: { field: "tags", meta: false, op: "none", values: [{ text: "a" }, { text: "b" }] } },
    { q: "id=000000000000000000000001", expected: { field: "id", meta: true, op: "eq", values: [{ text: "000000000000000000000001" }] } },
    { q: "created__gte=2026-01-01", expected: { field: "created", meta: true, op: "gte", values: [{ text: "2026-01-01" }] } },
    // Meta columns are text, so a number-like value on them stays text.
    { q: "last_updated__lt=2026", expected: { field: "last_updated", meta: true, op: "lt", values: [{ text: "2026" }] } },
    { q: "mode__eq=OR", expected: { field: "mode", meta: false, op: "eq", values: [{ text: "OR" }] } },
    { q: "page__gt=2", expected: { field: "page", meta: false, op: "gt", values: [{ text: "2", number: 2 }] } },
    { q: "last_name=", expected: { field: "last_name", meta: false, op: "eq", values: [{ text: "" }] } },
  ];
  it.each(SHAPES)("$q", ({ q, expected }) => {
    expect(only(q)).toEqual(expected);
  });

  it("the table above covers every modifier", () => {
    const seen = new Set<Modifier>(SHAPES.map((s) => s.expected.op));
    expect([...seen].sort()).toEqual([...MODIFIERS].sort());
  });

  describe("numbers", () => {
    it.each([
      { text: "0", number: 0 },
      { text: "42", number: 42 },
      { text: "007", number: 7 },
      { text: "-2.5", number: -2.5 },
      { text: "3.14159", number: 3.14159 },
    ])("$text is a number", ({ text, number }) => {
      expect(only(qs([["amount__gt", text]])).values).toEqual([{ text, number }]);
    });

    it.each(["1e3", "0x10", "+3", " 3", "3 ", "3.", ".5", "-", "1,000", "NaN", "Infinity", "1".repeat(400)])(
      "%j is text only",
      (text) => {
        expect(only(qs([["amount__gt", text]])).values).toEqual([{ text }]);
      },
    );
  });

  describe("smart dates", () => {
    const TODAY = "2026-03-31T08:15:30.123000";
    it.each(["eq", "ne", "gt", "gte", "lt", "lte"] as const)("are resolved for %s", (op) => {
      expect(only(qs([[`created__${op}`, "today"]])).values).toEqual([{ text: TODAY }]);
    });

    it.each([
      { value: "yesterday", text: "2026-03-30T08:15:30.123000" },
      { value: " Last Week ", text: "2026-02-28T08:15:30.123000" },
      { value: "start_of_month", text: "2026-03-01T00:00:00.000000" },
    ])("$value resolves against now", ({ value, text }) => {
      // A timestamp on a data field also carries its date, for date-only values (FilterValue.date).
      expect(only(qs([["start_date__gte", value]])).values).toEqual([{ text, date: text.slice(0, 10) }]);
    });

    it.each(["raw", "contains", "near", "startswith", "startswithi", "and", "or", "andlist", "orlist", "none"] as const)(
      "are taken literally by %s",
      (op) => {
        expect(only(qs([[`notes__${op}`, "today"]])).values).toEqual([{ text: "today" }]);
      },
    );

    it("raw takes numbers literally too", () => {
      expect(only("amount__raw=10").values).toEqual([{ text: "10" }]);
    });

    it("follow the given now", () => {
      const now = new Date("2025-12-31T23:00:00.000Z");
      expect(only("created__gt=tomorrow", { now }).values).toEqual([{ text: "2026-01-01T23:00:00.000000" }]);
    });
  });

  describe("multi-value modifiers", () => {
    it.each([
      { name: "and: one value per occurrence, commas kept", q: qs([["tags__and", "a,b"], ["tags__and", "c"]]), op: "and", texts: ["a,b", "c"] },
      { name: "or: one value per occurrence, commas kept", q: qs([["tags__or", "x, y"], ["tags__or", "z"]]), op: "or", texts: ["x, y", "z"] },
      { name: "andlist: split on commas, trimmed", q: qs([["tags__andlist", " a , b,c "]]), op: "andlist", texts: ["a", "b", "c"] },
      { name: "orlist: blank items dropped", q: qs([["tags__orlist", "a,,b,"]]), op: "orlist", texts: ["a", "b"] },
      { name: "none: repeated occurrences merge", q: qs([["tags__none", "a,b"], ["tags__none", "c"]]), op: "none", texts: ["a", "b", "c"] },
      { name: "andlist: repeated occurrences merge", q: qs([["tags__andlist", "a"], ["tags__andlist", "b,c"]]), op: "andlist", texts: ["a", "b", "c"] },
      { name: "and: an empty occurrence is the empty text", q: "tags__and=", op: "and", texts: [""] },
    ])("$name", ({ q, op, texts }) => {
      const f = only(q);
      expect(f.op).toBe(op);
      expect(f.values.map((v) => v.text)).toEqual(texts);
    });

    it("keep number detection per value", () => {
      expect(only("codes__orlist=1,x,2.5").values).toEqual([{ text: "1", number: 1 }, { text: "x" }, { text: "2.5", number: 2.5 }]);
    });

    it("merge only the same field and modifier, in order of first appearance", () => {
      const { filters } = parseQs("tags__and=a&tags__or=b&skills__and=c&tags__and=d");
      expect(filters.map((f) => [f.field, f.op, f.values.map((v) => v.text)])).toEqual([
        ["tags", "and", ["a", "d"]],
        ["tags", "or", ["b"]],
        ["skills", "and", ["c"]],
      ]);
    });

    it.each(["tags__andlist=", "tags__orlist=,,", "tags__none=%20,%20"])("%s is an empty value list", (q) => {
      const e = errorOf(() => parseQs(q));
      expect(e.code).toBe("bad_request");
      expect(e.message).toBe("empty value list");
      expect(e.detail).toContain(q.split("=")[0]);
    });
  });

  it("keeps repeated single-value filters separate, in order", () => {
    const { filters } = parseQs("last_name=a&first_name=x&last_name=b");
    expect(filters.map((f) => [f.field, f.op, f.values.map((v) => v.text)])).toEqual([
      ["last_name", "eq", ["a"]],
      ["first_name", "eq", ["x"]],
      ["last_name", "eq", ["b"]],
    ]);
  });

  describe("v1 surface", () => {
    it.each(["andlist", "orlist"])("refuses %s, naming it", (op) => {
      const e = errorOf(() => parseQs(`tags__${op}=a,b`, { surface: "v1" }));
      expect(e.code).toBe("bad_request");
      expect(e.message).toContain(op);
      expect(e.detail).toContain(`tags__${op}`);
      expect(e.detail).toContain("v2");
    });

    it.each(MODIFIERS.filter((m) => m !== "andlist" && m !== "orlist"))("accepts %s", (op) => {
      expect(only(`tags__${op}=a`, { surface: "v1" }).op).toBe(op);
    });
  });

  describe("isKnownField", () => {
    const known = new Set(["first_name", "tags"]);
    it("accepts known fields", () => {
      expect(parseQs("first_name=Ada&tags__and=x", { isKnownField: (f) => known.has(f) }).filters).toHaveLength(2);
    });

    it.each(["shoe_size=9", "shoe_size__gt=9", "first_name=Ada&shoe_size=9"])("refuses an unknown field: %s", (q) => {
      const e = errorOf(() => parseQs(q, { isKnownField: (f) => known.has(f) }));
      expect(e.code).toBe("bad_request");
      expect(e.message).toBe("unknown field");
      expect(e.detail).toContain('"shoe_size"');
    });

    it("never asks about meta fields, which are always known", () => {
      const isKnownField = vi.fn(() => false);
      const { filters } = parseQs("id=x&created__gt=today&last_updated__lt=2026-01-01", { isKnownField });
      expect(filters.map((f) => f.meta)).toEqual([true, true, true]);
      expect(isKnownField).not.toHaveBeenCalled();
    });

    it("is not asked about control parameters", () => {
      const isKnownField = vi.fn(() => false);
      parseQs("mode=OR&page=2&page_size=5&limit=5&include_deleted=Y&state=deleted", { isKnownField });
      expect(isKnownField).not.toHaveBeenCalled();
    });
  });

  describe("bad keys", () => {
    it.each([
      { q: "first_name__foo=x", message: "unknown modifier", mentions: '"foo"' },
      { q: "first__name=x", message: "unknown modifier", mentions: '"name"' },
      { q: "1abc=x", message: "bad field name", mentions: '"1abc"' },
      { q: "a-b__eq=x", message: "bad field name", mentions: '"a-b"' },
      { q: "=x", message: "bad field name", mentions: '""' },
      { q: "__eq=x", message: "bad field name", mentions: '""' },
    ])("$q: $message", ({ q, message, mentions }) => {
      const e = errorOf(() => parseQs(q));
      expect(e.code).toBe("bad_request");
      expect(e.message).toBe(message);
      expect(e.detail).toContain(mentions);
    });
  });

  describe("limits", () => {
    const manyFilters = (n: number) => qs(Array.from({ length: n }, (_, i) => [`f${i}`, "x"] as [string, string]));
    const manyValues = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

    it(`accepts ${MAX_FILTERS} filters`, () => {
      expect(parseQs(manyFilters(MAX_FILTERS)).filters).toHaveLength(MAX_FILTERS);
    });

    it(`refuses ${MAX_FILTERS + 1} filters`, () => {
      const e = errorOf(() => parseQs(manyFilters(MAX_FILTERS + 1)));
      expect(e.message).toBe("too many filters");
      expect(e.detail).toContain(String(MAX_FILTERS));
    });

    it("counts repeated single-value filters one each", () => {
      const q = qs(Array.from({ length: MAX_FILTERS + 1 }, () => ["last_name", "x"] as [string, string]));
      expect(errorOf(() => parseQs(q)).message).toBe("too many filters");
    });

    it("counts a merged multi-value filter once", () => {
      const q = qs(manyValues(MAX_FILTERS + 1).map((v) => ["tags__or", v] as [string, string]));
      expect(parseQs(q).filters).toHaveLength(1);
    });

    it.each([
      { name: "eq", q: (v: string) => qs([["notes", v]]) },
      { name: "an andlist item", q: (v: string) => qs([["tags__andlist", `a,${v}`]]) },
      { name: "an and occurrence", q: (v: string) => qs([["tags__and", "a"], ["tags__and", v]]) },
    ])(`refuses a value over ${MAX_VALUE_LENGTH} characters: $name`, ({ q }) => {
      expect(parseQs(q("x".repeat(MAX_VALUE_LENGTH))).filters).toHaveLength(1);
      const e = errorOf(() => parseQs(q("x".repeat(MAX_VALUE_LENGTH + 1))));
      expect(e.message).toBe("filter value too long");
      expect(e.detail).toContain(String(MAX_VALUE_LENGTH));
    });

    it("checks value length before resolving smart dates", () => {
      const padded = `${" ".repeat(MAX_VALUE_LENGTH)}today`;
      expect(errorOf(() => parseQs(qs([["created__gt", padded]]))).message).toBe("filter value too long");
    });

    it.each([
      { name: "one andlist", q: (n: number) => qs([["tags__andlist", manyValues(n).join(",")]]) },
      { name: "repeated or", q: (n: number) => qs(manyValues(n).map((v) => ["tags__or", v] as [string, string])) },
      {
        name: "none across occurrences",
        q: (n: number) => qs([["tags__none", manyValues(n - 1).join(",")], ["tags__none", "last"]]),
      },
    ])(`refuses more than ${MAX_VALUES_PER_FILTER} values: $name`, ({ q }) => {
      expect(parseQs(q(MAX_VALUES_PER_FILTER)).filters[0]!.values).toHaveLength(MAX_VALUES_PER_FILTER);
      const e = errorOf(() => parseQs(q(MAX_VALUES_PER_FILTER + 1)));
      expect(e.message).toBe("too many filter values");
      expect(e.detail).toContain(String(MAX_VALUES_PER_FILTER));
    });
  });
});
