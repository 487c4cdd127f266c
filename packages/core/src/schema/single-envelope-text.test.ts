import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recordOfDataText, type StoredRecord } from "../model/record.js";
import { canonicalObjectKeys, replaceTopLevelNulls } from "./canonical-json.js";
import { singleEnvelopeText, toSingleEnvelope } from "./envelope.js";
import { newPersonData } from "./person.js";

// The single-record answer splices a record's stored data text when it can (singleEnvelopeText):
// these pin that it is byte for byte the envelope of the parsed data without references.

const FIELDS: Omit<StoredRecord, "data"> = {
  id: "0123456789abcdef01234567",
  flock: "demo",
  type: "person",
  state: "updated",
  displayValue: 'Ada \u0000 ,"data":0, \ud800',
  created: "2026-01-15T10:00:00.000000",
  lastUpdated: "2026-01-16T11:00:00.000000",
  version: 2,
};

/** What the answer held before: the text parsed, the envelope serialized (no reference found). */
function serialized(fields: Omit<StoredRecord, "data">, text: string): string {
  return JSON.stringify(toSingleEnvelope({ ...fields, data: JSON.parse(text) as Record<string, unknown> }, new Map()));
}

describe("singleEnvelopeText", () => {
  it.each([
    ["a complete person (null list fields)", newPersonData({ first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] })],
    ["a person with some fields", { first_name: "Ada", last_name: "Lovelace", tags: null, notes: null }],
    ["a person with none", {}],
    ["a null list field inside a nested value", { custom: { tags: null, email: [null] }, tags: ["a"], email: null }],
    ["values that hold the text null", { notes: "x:null", bio: "null", tags: ["null", ":null"] }],
    ["nested values and integers", { a: { b: [1, { c: null }], d: {} }, e: [[], [true, false]], f: -12 }],
  ])("%s", (_what, data) => {
    const text = JSON.stringify(data);
    for (const type of ["person", "organisation"]) {
      const fields = { ...FIELDS, type };
      expect(singleEnvelopeText(recordOfDataText(fields, text))).toBe(serialized(fields, text));
    }
  });

  it.each([
    ['{"member":"/demo/person/0123456789abcdef01234567/"}', "a reference, expanded when it exists"],
    ['{"links":["/demo/person/0123456789abcdef01234567/;parent"]}', "a reference in a list"],
    ['{"last_name": "x"}', "a text JSON.stringify does not write"],
  ])("%s: left to the parsing path (%s)", (text) => {
    expect(singleEnvelopeText(recordOfDataText(FIELDS, text))).toBeUndefined();
  });

  it("keeps a __proto__ member as the list does, on either path", () => {
    const text = '{"__proto__":{"x":1},"last_name":"A"}';
    const spliced = singleEnvelopeText(recordOfDataText(FIELDS, text))!;
    expect(spliced).toBe(serialized(FIELDS, text));
    expect(spliced).toContain('"data":{"__proto__":{"x":1},"last_name":"A",');
  });

  it("leaves a record whose data was read to the parsing path", () => {
    const record = recordOfDataText(FIELDS, '{"last_name":"Lovelace"}');
    expect(record.data.last_name).toBe("Lovelace");
    expect(singleEnvelopeText(record)).toBeUndefined();
    expect(singleEnvelopeText({ ...FIELDS, data: { last_name: "Lovelace" } })).toBeUndefined();
  });

  it("gives the serialized envelope's bytes whenever it gives any", () => {
    const key = fc.oneof(fc.constantFrom("tags", "email", "last_name", "dedupe_key", "__proto__", "1", "constructor"), fc.string());
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.string({ unit: fc.constantFrom(..."a/\"\\:,{}[]n\u0000") }),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("v")),
        fc.dictionary(key, tie("v")),
      ),
    })).v;
    let spliced = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value), fc.constantFrom("person", "organisation"), (data, type) => {
        const text = JSON.stringify(data);
        const fields = { ...FIELDS, type };
        const got = singleEnvelopeText(recordOfDataText(fields, text));
        if (got === undefined) return;
        spliced += 1;
        expect(got).toBe(serialized(fields, text));
      }),
      { numRuns: 2000 },
    );
    // The property says something only when the splice is taken often enough.
    expect(spliced).toBeGreaterThan(200);
  });
});

describe("replaceTopLevelNulls", () => {
  it("replaces the named top-level nulls only", () => {
    const text = '{"a":null,"b":{"a":null},"c":[null],"d":null,"e":"null"}';
    const keys = canonicalObjectKeys(text)!;
    expect(replaceTopLevelNulls(text, keys, new Set(["a", "b", "c", "e"]), "[null]")).toBe('{"a":[null],"b":{"a":null},"c":[null],"d":null,"e":"null"}');
    expect(replaceTopLevelNulls(text, keys, new Set(["d"]), "X")).toBe('{"a":null,"b":{"a":null},"c":[null],"d":X,"e":"null"}');
    expect(replaceTopLevelNulls("{}", [], new Set(["a"]), "X")).toBe("{}");
  });
});
