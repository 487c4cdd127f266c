import { describe, expect, it } from "vitest";
import { formatEntry, parseEntry, primaryEntry } from "./list-entries.js";

describe("list entries", () => {
  it.each([
    { text: "ada@example.org;home", entry: { value: "ada@example.org", label: "home", primary: false } },
    { text: "ada@example.org;work__primary", entry: { value: "ada@example.org", label: "work", primary: true } },
    { text: "ada@example.org", entry: { value: "ada@example.org", label: null, primary: false } },
    { text: "ada@example.org;__primary", entry: { value: "ada@example.org", label: null, primary: true } },
    { text: "/demo/person/0123456789abcdef01234567/;mother", entry: { value: "/demo/person/0123456789abcdef01234567/", label: "mother", primary: false } },
    { text: "+44 20 7946 0000;mobile;extra", entry: { value: "+44 20 7946 0000", label: "mobile;extra", primary: false } },
  ])("parses and formats $text", ({ text, entry }) => {
    expect(parseEntry(text)).toEqual(entry);
    expect(formatEntry(entry)).toBe(text);
  });

  it("formats an entry with an empty label as the bare value", () => {
    expect(formatEntry({ value: "x", label: "", primary: false })).toBe("x");
  });

  it.each([
    { name: "the primary one", list: ["a@x.org;home", "b@x.org;work__primary", "c@x.org;x__primary"], value: "b@x.org" },
    { name: "else the first", list: ["a@x.org;home", "b@x.org;work"], value: "a@x.org" },
    { name: "skipping nulls", list: [null, "b@x.org"], value: "b@x.org" },
    { name: "none in an empty list", list: [], value: undefined },
    { name: "none in [null]", list: [null], value: undefined },
    { name: "none for null", list: null, value: undefined },
  ])("primaryEntry: $name", ({ list, value }) => {
    expect(primaryEntry(list)?.value).toBe(value);
  });
});
