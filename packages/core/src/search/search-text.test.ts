import { describe, expect, it } from "vitest";
import { levenshtein, searchDistance } from "./distance.js";
import { documentMatches, foldText, searchDocument, searchTerms, searchWords } from "./search-text.js";

const rec = (type: string, data: Record<string, unknown>, displayValue: string, state: "updated" | "deleted" = "updated") => ({
  id: "a".repeat(24), flock: "demo", type, state, data, displayValue, created: "", lastUpdated: "", version: 1,
});

describe("search text", () => {
  it.each([
    { input: "Zoë MÜLLER", expected: "zoe muller" },
    { input: "ASCII Only", expected: "ascii only" },
    { input: "Ångström", expected: "angstrom" },
  ])("folds $input", ({ input, expected }) => expect(foldText(input)).toBe(expected));

  it("splits into words of letters and digits", () => {
    expect(searchWords("ada@Example.org; +44 (20)")).toEqual(["ada", "example", "org", "44", "20"]);
    expect(searchTerms("Ada  ada LOVE !!")).toEqual(["ada", "love"]);
    expect(searchTerms("a b c d e f g h i j")).toHaveLength(8);
  });

  it("indexes contacts' names, addresses and numbers once each; nothing for other types or deleted ones", () => {
    const ada = rec("person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"], postal_code: "SW1Y 4JH" }, "Ada Lovelace");
    expect(searchDocument(ada)).toBe("ada lovelace example org sw1y 4jh");
    expect(searchDocument(rec("journal", { name: "x" }, "x"))).toBeUndefined();
    expect(searchDocument({ ...ada, state: "deleted" })).toBeUndefined();
  });

  it("matches whole words, or word starts with prefix", () => {
    expect(documentMatches("ada lovelace", ["love"], true)).toBe(true);
    expect(documentMatches("ada lovelace", ["love"], false)).toBe(false);
    expect(documentMatches("ada lovelace", ["ada", "lovelace"], false)).toBe(true);
    expect(documentMatches("ada lovelace", ["ovelace"], true)).toBe(false);
  });
});

describe("distance", () => {
  it.each([
    { a: "kitten", b: "sitting", d: 3 },
    { a: "", b: "abc", d: 3 },
    { a: "same", b: "same", d: 0 },
    { a: "flaw", b: "lawn", d: 2 },
  ])("levenshtein($a, $b) = $d", ({ a, b, d }) => expect(levenshtein(a, b)).toBe(d));

  it("is 0 for the exact name or address and grows with difference", () => {
    const ada = rec("person", { first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org"] }, "Countess Ada Lovelace");
    expect(searchDistance("ada lovelace", ada)).toBe(0);
    expect(searchDistance("ADA@example.org", ada)).toBe(0);
    expect(searchDistance("ada love", ada)).toBeGreaterThan(0);
    expect(searchDistance("ada love", ada)).toBeLessThan(searchDistance("zed", ada));
  });
});
