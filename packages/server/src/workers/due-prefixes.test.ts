import { formatTimestamp, parseTimestamp } from "@records-service/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonPrefix, windowPrefixes } from "./due-prefixes.js";

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 0, 1);

/** Every text form `parseTimestamp` reads, of one instant. */
function forms(ms: number): string[] {
  const full = formatTimestamp(new Date(ms)); // YYYY-MM-DDTHH:MM:SS.ffffff
  const day = full.slice(0, 10);
  const hm = full.slice(11, 16);
  const hms = full.slice(11, 19);
  const out = [day, `${day}Z`];
  for (const sep of ["T", " "]) {
    for (const time of [hm, hms, `${hms}.${full.slice(20, 21)}`, `${hms}.${full.slice(20, 23)}`, full.slice(11)]) {
      out.push(`${day}${sep}${time}`, `${day}${sep}${time}Z`);
    }
  }
  return out;
}

describe("windowPrefixes", () => {
  it.each([
    {
      name: "a minute within one day: the common prefix",
      after: "2026-06-14T10:00:00.000000",
      upTo: "2026-06-14T10:01:00.000000",
      expected: ["2026-06-14T10:0"],
    },
    {
      name: "across midnight: the end of the first day, and the next day",
      after: "2026-06-13T23:59:00.000000",
      upTo: "2026-06-14T00:00:00.000000",
      expected: ["2026-06-13T23:59", "2026-06-13Z", "2026-06-14"],
    },
    {
      name: "several days: every whole day between",
      after: "2026-02-27T12:00:00.000000",
      upTo: "2026-03-02T06:00:00.000000",
      expected: ["2026-02-27T", "2026-02-27Z", "2026-02-28", "2026-03-01", "2026-03-02"],
    },
    { name: "an empty window", after: "2026-06-14T10:00:00.000000", upTo: "2026-06-14T10:00:00.000000", expected: [] },
    { name: "a reversed window", after: "2026-06-15T00:00:00.000000", upTo: "2026-06-14T00:00:00.000000", expected: [] },
  ])("$name", ({ after, upTo, expected }) => {
    expect(windowPrefixes(after, upTo)).toEqual(expected);
  });

  it("covers every readable date or timestamp inside the window (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 * DAY }),
        fc.integer({ min: 1, max: 5 * DAY }),
        fc.integer({ min: -DAY, max: 7 * DAY }),
        (start, length, offset) => {
          const after = formatTimestamp(new Date(BASE + start));
          const upTo = formatTimestamp(new Date(BASE + start + length));
          const prefixes = windowPrefixes(after, upTo);
          for (const text of forms(BASE + start + offset)) {
            if (!(text > after && text <= upTo) || !parseTimestamp(text)) continue;
            expect(prefixes.some((p) => text.startsWith(p)), `${text} in (${after}, ${upTo}]`).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("stays small: a one-minute window is one prefix, a day's window at most four", () => {
    expect(windowPrefixes("2026-12-31T23:59:00.000000", "2027-01-01T00:00:00.000000")).toEqual([
      "2026-12-31T23:59",
      "2026-12-31Z",
      "2027-01-01",
    ]);
    expect(windowPrefixes("2026-12-31T12:00:00.000000", "2027-01-01T12:00:00.000000")).toHaveLength(3);
  });
});

describe("commonPrefix", () => {
  it.each([
    ["abc", "abd", "ab"],
    ["abc", "abc", "abc"],
    ["", "x", ""],
    ["ab", "abc", "ab"],
  ])("%s, %s → %s", (a, b, expected) => {
    expect(commonPrefix(a, b)).toBe(expected);
  });
});
