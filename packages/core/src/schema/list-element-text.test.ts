import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ListQuery } from "../model/query.js";
import { recordOfDataText, storedDataText, type StoredRecord } from "../model/record.js";
import { canonicalObjectKeys } from "./canonical-json.js";
import { listElementText, toListElement, toListWrapper } from "./envelope.js";
import { listAnswerText } from "./list-answer.js";
import { newPersonData } from "./person.js";

// The list answer writes a record's stored data text as it is (listElementText): these pin
// that it is byte for byte what parsing that text and serializing the element gives.

const FIELDS: Omit<StoredRecord, "data"> = {
  id: "0123456789abcdef01234567",
  flock: "demo",
  type: "person",
  state: "updated",
  displayValue: "Ada \u0000 \"Lovelace\" \ud800",
  created: "2026-01-15T10:00:00.000000",
  lastUpdated: "2026-01-16T11:00:00.000000",
  version: 2,
};

/** What the answer held before: the text parsed, the element serialized. */
function serialized(fields: Omit<StoredRecord, "data">, text: string): string {
  return JSON.stringify(toListElement({ ...fields, data: JSON.parse(text) as Record<string, unknown> }));
}

const query: ListQuery = { filters: [], mode: "AND", states: ["updated"], page: 1, pageSize: 25 };

describe("listElementText", () => {
  // Data as the storage writes it (JSON.stringify): spliced, the same bytes.
  it.each([
    ["a complete person", newPersonData({ first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org;home"] })],
    ["a person with some fields", { first_name: "Ada", last_name: "Lovelace" }],
    ["a person with none", {}],
    ["NUL and other control characters", { last_name: "a\u0000b\u0001\u0007\u0008\u0009\u000a\u000b\u000c\u000d\u001f\u007f" }],
    ["lone surrogates", { last_name: "\ud800", first_name: "x\udfffy", tags: ["\udbff\udc00", "\udc00\udbff"] }],
    ["quotes, backslashes, slashes, U+2028", { last_name: 'say "hi" \\ / \u2028\u2029', first_name: "\\u0041" }],
    ["astral characters and accents", { last_name: "Łódź 😀 \u00e9" }],
    ["escapes in keys", { 'we"ird\\key\n': 1, "\u0000": 2, "__proto__": 3 }],
    ["numbers", { a: 0, b: -0, c: 1e21, d: 1.5, e: 5e-7, f: Number.MAX_SAFE_INTEGER, g: -12.25, h: 123456789012345680000 }],
    ["nested values", { a: { b: [1, { c: null }], d: {} }, e: [[], [true, false]] }],
    ["an array-index key (takes the serializing path)", { b: 1, "1": 2, "01": 3 }],
  ])("%s", (_what, data) => {
    const text = JSON.stringify(data);
    for (const type of ["person", "organisation"]) {
      const fields = { ...FIELDS, type };
      expect(listElementText(recordOfDataText(fields, text))).toBe(serialized(fields, text));
    }
  });

  // Text not as JSON.stringify writes it (another writer, a hand edit): never written as it is.
  it.each([
    ['{"last_name": "x"}', "a space"],
    ['{"last_name":"x"}\n', "a trailing newline"],
    ['{"a":"\\u0041"}', "an escape JSON.stringify does not write"],
    ['{"a":"\\u001F"}', "an upper-case escape"],
    ['{"a":"\\u0008"}', "\\u0008 where it writes \\b"],
    ['{"a":"\\/"}', "an escaped slash"],
    ['{"a":"\\ud83d\\ude00"}', "an escaped surrogate pair"],
    ['{"a":"\\ud800"}', "an escaped lone surrogate (left to the serializing path)"],
    ['{"a":1.0}', "1.0"],
    ['{"a":1e2}', "an exponent"],
    ['{"a":-0}', "-0"],
    ['{"a":12345678901234567890}', "an integer past 2^53"],
    ['{"a":1,"a":2}', "a duplicate key"],
    ['{"b":{"a":1,"a":2}}', "a duplicate nested key"],
    ['{"b":1,"2":3}', "an array-index key"],
    [`${'{"a":'.repeat(100)}1${"}".repeat(100)}`, "deep nesting"],
  ])("%s (%s)", (text) => {
    expect(canonicalObjectKeys(text)).toBeUndefined();
    expect(listElementText(recordOfDataText(FIELDS, text))).toBe(serialized(FIELDS, text));
  });

  it("writes any JSON object's serialized text as it is, and the same bytes as serializing its parse", () => {
    const strings = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.constantFrom("\u0000", "\ud800", "\\", '"', "last_name", "1"));
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        strings,
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value")),
        fc.dictionary(strings, tie("value")),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(strings, values), fc.constantFrom("person", "organisation"), (data, type) => {
        const text = JSON.stringify(data);
        const fields = { ...FIELDS, type };
        expect(listElementText(recordOfDataText(fields, text))).toBe(serialized(fields, text));
      }),
      { numRuns: 2000 },
    );
  });

  it("vouches for JSON.stringify's text of data with plain strings and integers", () => {
    const strings = fc.string({ unit: fc.constantFrom(...[..."aZ _-:,{}[]é😀"]) });
    const keys = strings.filter((k) => !/^(?:0|[1-9][0-9]*)$/.test(k));
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        strings,
        fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value")),
        fc.dictionary(keys, tie("value")),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(keys, values), (data) => {
        const text = JSON.stringify(data);
        // Astral characters (surrogate pairs) are left to the serializing path.
        if (/[\ud800-\udfff]/.test(text)) expect(canonicalObjectKeys(text)).toBeUndefined();
        else expect(canonicalObjectKeys(text)).toEqual(Object.keys(data));
      }),
      { numRuns: 1000 },
    );
  });

  it("judges texts of a remembered layout, and texts near it, as any other", () => {
    const base = '{"last_name":"a","tags":["x"]}';
    expect(canonicalObjectKeys(base)).toEqual(["last_name", "tags"]);
    const cases: [string, string[] | undefined][] = [
      ['{"last_name":"b","tags":[]}', ["last_name", "tags"]],
      ['{"last_namex":"b","tags":[]}', ["last_namex", "tags"]],
      ['{"last_nam":"b","tags":[]}', ["last_nam", "tags"]],
      ['{"last_name":"b","tags":[],"x":1}', ["last_name", "tags", "x"]],
      ['{"last_name":"b"}', ["last_name"]],
      ['{"tags":[],"last_name":"b"}', ["tags", "last_name"]],
      ['{"last_name":"b","last_name":"c"}', undefined],
      ['{"last_name":"b","tags":[1.0]}', undefined],
      ['{"last_name":"b","tags":[] }', undefined],
      ['{"last_name":"b","tags":[]}x', undefined],
      ["{}", []],
    ];
    for (const [text, keys] of cases) {
      // Each after the base (a remembered layout), then again after itself.
      canonicalObjectKeys(base);
      expect(canonicalObjectKeys(text), text).toEqual(keys);
      expect(canonicalObjectKeys(text), text).toEqual(keys);
    }
  });

  it("gives the keys of texts drawn from a few keys (layouts met again and again)", () => {
    const key = fc.constantFrom("a", "ab", "b", "last_name", "last_names", "tags");
    const value = fc.oneof(fc.string({ unit: fc.constantFrom(..."ab ,:{}[]") }), fc.integer({ min: -999, max: 999 }), fc.constant(null), fc.array(fc.boolean()));
    fc.assert(
      fc.property(fc.array(fc.dictionary(key, value), { minLength: 1, maxLength: 6 }), (datas) => {
        for (const data of datas) expect(canonicalObjectKeys(JSON.stringify(data))).toEqual(Object.keys(data));
      }),
      { numRuns: 1000 },
    );
  });

  it("serializes the parsed object once the data was read or replaced", () => {
    const text = '{"last_name":"Lovelace"}';
    const read = recordOfDataText(FIELDS, text);
    read.data.last_name = "Byron";
    expect(storedDataText(read)).toBeUndefined();
    expect(listElementText(read)).toContain('"last_name":"Byron"');
    const replaced = recordOfDataText(FIELDS, text);
    replaced.data = { last_name: "Byron" };
    expect(listElementText(replaced)).toContain('"last_name":"Byron"');
    // Replaced by nothing: the stored text is gone for good all the same.
    const emptied = recordOfDataText(FIELDS, text);
    emptied.data = undefined as unknown as Record<string, unknown>;
    expect(storedDataText(emptied)).toBeUndefined();
    expect(emptied.data).toBeUndefined();
    // A copy holds the parsed object, never the text.
    const copy = { ...recordOfDataText(FIELDS, text), data: { last_name: "Byron" } };
    expect(storedDataText(copy)).toBeUndefined();
  });

  it("reads like a plain record", () => {
    const record = recordOfDataText(FIELDS, '{"last_name":"Lovelace"}');
    expect(Object.keys(record)).toEqual(["id", "flock", "type", "state", "data", "displayValue", "created", "lastUpdated", "version"]);
    expect(record).toEqual({ ...FIELDS, data: { last_name: "Lovelace" } });
    const { id, flock, type, state, ...rest } = FIELDS;
    expect(JSON.stringify(recordOfDataText(FIELDS, "{}"))).toBe(JSON.stringify({ id, flock, type, state, data: {}, ...rest }));
  });

  it("gives the list answer toListWrapper's bytes", async () => {
    const texts = ['{"last_name":"A"}', '{"last_name": "B"}', JSON.stringify(newPersonData({ last_name: "C\u0000" }))];
    const page = { total: 7, records: texts.map((t) => recordOfDataText(FIELDS, t)) };
    const parsed = { total: 7, records: texts.map((t) => ({ ...FIELDS, data: JSON.parse(t) as Record<string, unknown> })) };
    expect(await listAnswerText(page, query)).toBe(JSON.stringify(toListWrapper(parsed, query)));
  });
});
