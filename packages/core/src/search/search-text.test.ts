import { describe, expect, it } from "vitest";
import { levenshtein, MAX_RANKED_CANDIDATES, MAX_RANKED_LENGTH, searchDistance } from "./distance.js";
import {
  cutCodePoints,
  documentMatches,
  foldText,
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_WORD_LENGTH,
  searchDocument,
  searchDocumentMayChange,
  searchTerms,
  searchWords,
} from "./search-text.js";

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

describe("long texts (issue 20: no text makes a request slow or fail)", () => {
  it("cuts at code points, never inside a surrogate pair", () => {
    expect(cutCodePoints("abcdef", 3)).toBe("abc");
    expect(cutCodePoints("ab", 3)).toBe("ab");
    expect(cutCodePoints("😀😀😀", 2)).toBe("😀😀");
  });

  it("indexes a word longer than MAX_SEARCH_WORD_LENGTH cut to it, so every query term that starts it still matches", () => {
    const long = "wa".repeat(125_000);
    const doc = searchDocument(rec("person", { first_name: long, last_name: "Long" }, `${long} Long`))!;
    const words = doc.split(" ");
    expect(Math.max(...words.map((w) => w.length))).toBe(MAX_SEARCH_WORD_LENGTH);
    expect(words).toContain("long");
    const longestTerm = long.slice(0, MAX_SEARCH_LENGTH);
    expect(documentMatches(doc, [longestTerm, "lon"], true)).toBe(true);
  });

  it("ranks by the first MAX_RANKED_LENGTH characters, and at most MAX_RANKED_CANDIDATES names and addresses a record", () => {
    const long = "wa".repeat(125_000);
    const person = rec("person", { first_name: long, last_name: "Long" }, `${long} Long`);
    // Distances as if the name were its start: what a long query equal to that start finds.
    expect(searchDistance(long.slice(0, MAX_RANKED_LENGTH), person)).toBe(0);
    expect(searchDistance(long.slice(0, 200), person)).toBe(0);
    const many = Array.from({ length: 40 }, (_, i) => `person${i}@example.org`);
    const listed = rec("person", { first_name: "Ada", email: many }, "Ada");
    // Names come first: the first emails are compared, the last are beyond the bound.
    expect(searchDistance("person0@example.org", listed)).toBe(0);
    expect(searchDistance(`person${many.length - 1}@example.org`, listed)).toBeGreaterThan(0);
    expect(MAX_RANKED_CANDIDATES).toBeLessThan(many.length * 2);
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

describe("searchDocumentMayChange", () => {
  const person = { id: "p", flock: "f", type: "person", state: "updated" as const, data: { first_name: "Ada", job_title: "x" }, displayValue: "Ada", created: "t", lastUpdated: "t", version: 1 };
  it.each([
    { name: "an unsearched field", after: { ...person, data: { ...person.data, job_title: "y" } }, changed: ["job_title"], expected: false },
    { name: "a searched field", after: { ...person, data: { ...person.data, first_name: "Ida" } }, changed: ["first_name"], expected: true },
    { name: "the display value", after: { ...person, displayValue: "Ida" }, changed: [], expected: true },
    { name: "the state", after: { ...person, state: "deleted" as const }, changed: [], expected: true },
    { name: "a type not searched", after: { ...person, type: "journal" }, changed: ["first_name"], expected: true },
  ])("$name: $expected", ({ after, changed, expected }) => {
    expect(searchDocumentMayChange(person, after, changed)).toBe(expected);
  });

  it("is false for an update of a type the index does not hold", () => {
    const journal = { ...person, type: "journal" };
    expect(searchDocumentMayChange(journal, { ...journal, displayValue: "Other" }, ["first_name"])).toBe(false);
  });

  it("agrees with the documents themselves on every field a person has", () => {
    const moved: string[] = [];
    for (const field of Object.keys(person.data).concat(["last_name", "email", "locality", "postal_code", "notes", "tags"])) {
      const after = { ...person, data: { ...person.data, [field]: "Changed Value" } };
      if (searchDocument(after) === searchDocument(person)) continue;
      moved.push(field);
      expect(searchDocumentMayChange(person, after, [field])).toBe(true);
    }
    // The documents do move with the searched fields: the check above ran.
    expect(moved).toEqual(expect.arrayContaining(["first_name", "last_name", "email", "locality"]));
  });
});
