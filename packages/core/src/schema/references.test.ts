import { describe, expect, it } from "vitest";
import { isRecordUri, normalizeReference, parseRecordUri, recordUri, referencedKeys } from "./references.js";
import type { StoredRecord } from "../model/record.js";

const ID = "0123456789abcdef01234567";
const URI = `/demo/person/${ID}/`;

describe("record URIs", () => {
  it("builds and parses", () => {
    expect(recordUri("demo", "person", ID)).toBe(URI);
    expect(parseRecordUri(URI)).toEqual({ flock: "demo", type: "person", id: ID });
  });

  it.each([
    ["no trailing slash", `/demo/person/${ID}`],
    ["short id", "/demo/person/0123/"],
    ["upper-case id", `/demo/person/${ID.toUpperCase()}/`],
    ["bad type", `/demo/Person/${ID}/`],
    ["extra segment", `/x/demo/person/${ID}/`],
    ["with label", `${URI};mother`],
    ["empty", ""],
    ["file URL", `/files/v1/demo/${ID}/a.pdf`],
  ])("refuses %s", (_, s) => {
    expect(parseRecordUri(s)).toBeUndefined();
    expect(isRecordUri(s)).toBe(false);
  });

  it("isRecordUri is false for non-strings", () => {
    expect(isRecordUri(5)).toBe(false);
    expect(isRecordUri({ ref: URI })).toBe(false);
  });
});

describe("normalizeReference", () => {
  it.each([
    { name: "reference object", value: { display_value: "Ada", ref: URI }, expected: URI },
    { name: "ref only", value: { ref: URI }, expected: URI },
    { name: "URI string", value: URI, expected: URI },
    { name: "list of both forms", value: [{ ref: URI }, URI, "x"], expected: [URI, URI, "x"] },
    { name: "other object", value: { ref: URI, other: 1 }, expected: { ref: URI, other: 1 } },
    { name: "ref not a URI", value: { ref: "x" }, expected: { ref: "x" } },
    { name: "null", value: null, expected: null },
  ])("$name", ({ value, expected }) => {
    expect(normalizeReference(value)).toEqual(expected);
  });
});

describe("referencedKeys", () => {
  it("lists the same-flock URIs held by fields and whole list entries, once each", () => {
    const other = "fedcba9876543210fedcba98";
    const record = {
      id: "a".repeat(24),
      flock: "demo",
      type: "journal",
      state: "updated",
      data: {
        contact_ref: URI,
        again: URI,
        org: `/demo/organisation/${other}/`,
        foreign: `/elsewhere/person/${other}/`,
        list: [`/demo/person/${other}/`, `${URI};parent`, URI],
        text: "hello",
      },
      displayValue: "x",
      created: "",
      lastUpdated: "",
      version: 1,
    } satisfies StoredRecord;
    expect(referencedKeys(record)).toEqual([
      { type: "person", id: ID },
      { type: "organisation", id: other },
      { type: "person", id: other },
    ]);
  });
});
