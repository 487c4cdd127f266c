import { describe, expect, it } from "vitest";
import { MAX_RECORD_DATA_LENGTH, MAX_VALUES_PER_RECORD } from "../query/limits.js";
import { checkRecordLimits } from "./record-limits.js";

/** Texts whose JSON is `length` characters long with `each` characters for one of theirs. */
const textOfJson = (length: number, unit: string, each: number): string => unit.repeat(Math.ceil(length / each));

describe("checkRecordLimits", () => {
  // The data's JSON length decides, however far its texts grow when escaped: the check may
  // skip serializing only what cannot reach the limit.
  it.each([
    { name: "plain text", unit: "x", each: 1 },
    { name: "quotes", unit: '"', each: 2 },
    { name: "control characters", unit: "\u0001", each: 6 },
    { name: "lone surrogates", unit: "\ud800", each: 6 },
    { name: "letters beyond ASCII", unit: "é", each: 1 },
  ])("refuses data whose JSON passes the limit: $name", ({ unit, each }) => {
    const half = textOfJson(MAX_RECORD_DATA_LENGTH / 2 + 10, unit, each);
    const data = { a: half, b: [half] };
    expect(JSON.stringify(data).length).toBeGreaterThan(MAX_RECORD_DATA_LENGTH);
    expect(() => checkRecordLimits("journal", data)).toThrow(expect.objectContaining({ message: "record too large" }));
  });

  it.each([
    { name: "a text just under the limit", data: { a: "x".repeat(MAX_RECORD_DATA_LENGTH - 10) } },
    { name: "escaped texts just under it", data: { a: "\u0001".repeat(Math.floor((MAX_RECORD_DATA_LENGTH - 10) / 6)) } },
    { name: "a person-sized record", data: { first_name: "Ada", tags: ["a", "b"], n: 1.5, ok: true, none: null, geo: { lat: 1, lon: 2 } } },
  ])("accepts $name", ({ data }) => {
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(MAX_RECORD_DATA_LENGTH);
    expect(() => checkRecordLimits("journal", data)).not.toThrow();
  });

  it("serializes what is not JSON's own (an object whose JSON is longer than its members)", () => {
    class Long {
      toJSON() {
        return "x".repeat(MAX_RECORD_DATA_LENGTH);
      }
    }
    const data = { when: new Long() };
    expect(JSON.stringify(data).length).toBeGreaterThan(MAX_RECORD_DATA_LENGTH);
    expect(() => checkRecordLimits("journal", data)).toThrow(expect.objectContaining({ message: "record too large" }));
  });

  it("counts every value at any depth", () => {
    const data = { l: Array.from({ length: MAX_VALUES_PER_RECORD }, (_, i) => ({ i })) };
    expect(() => checkRecordLimits("journal", data)).toThrow(expect.objectContaining({ message: "too many values" }));
    expect(() => checkRecordLimits("journal", { l: data.l.slice(0, MAX_VALUES_PER_RECORD / 2 - 1) })).not.toThrow();
  });

  it("lets a write keep a record that was already past a bound", () => {
    const big = { a: "x".repeat(MAX_RECORD_DATA_LENGTH + 1) };
    expect(() => checkRecordLimits("journal", big, big)).not.toThrow();
  });
});
