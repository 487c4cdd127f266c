import { describe, expect, it } from "vitest";
import { resolveSmartDate, SMART_DATES } from "./smart-dates.js";

const iso = (text: string, now: string) => resolveSmartDate(text, new Date(now))?.toISOString();

describe("SMART_DATES", () => {
  it("lists the spec's twelve strings", () => {
    expect([...SMART_DATES].sort()).toEqual(
      [
        "today",
        "tomorrow",
        "yesterday",
        "last week",
        "last month",
        "last year",
        "year_ago",
        "next week",
        "next month",
        "next year",
        "start_of_month",
        "start_of_year",
      ].sort(),
    );
  });

  it("cannot be changed by a caller", () => {
    expect(Object.isFrozen(SMART_DATES)).toBe(true);
  });
});

describe("resolveSmartDate", () => {
  // Mar 31 exercises month clamping in both directions (Feb has no 31st, Apr has no 31st).
  const NOW = "2026-03-31T08:15:30.123Z";
  it.each([
    { text: "today", expected: "2026-03-31T08:15:30.123Z" },
    { text: "tomorrow", expected: "2026-04-01T08:15:30.123Z" },
    { text: "yesterday", expected: "2026-03-30T08:15:30.123Z" },
    { text: "last week", expected: "2026-02-28T08:15:30.123Z" }, // the spec: today minus one month
    { text: "last month", expected: "2026-02-28T08:15:30.123Z" },
    { text: "last year", expected: "2025-03-31T08:15:30.123Z" },
    { text: "year_ago", expected: "2025-03-31T08:15:30.123Z" },
    { text: "next week", expected: "2026-04-07T08:15:30.123Z" },
    { text: "next month", expected: "2026-04-30T08:15:30.123Z" },
    { text: "next year", expected: "2027-03-31T08:15:30.123Z" },
    { text: "start_of_month", expected: "2026-03-01T00:00:00.000Z" },
    { text: "start_of_year", expected: "2026-01-01T00:00:00.000Z" },
  ])("$text at $expected", ({ text, expected }) => {
    expect(iso(text, NOW)).toBe(expected);
  });

  it.each([
    { name: "yesterday across a year start", text: "yesterday", now: "2026-01-01T00:30:00.000Z", expected: "2025-12-31T00:30:00.000Z" },
    { name: "last month across a year start", text: "last month", now: "2026-01-15T10:00:00.000Z", expected: "2025-12-15T10:00:00.000Z" },
    { name: "last week across a year start", text: "last week", now: "2026-01-31T10:00:00.000Z", expected: "2025-12-31T10:00:00.000Z" },
    { name: "tomorrow across a year end", text: "tomorrow", now: "2025-12-31T23:59:59.999Z", expected: "2026-01-01T23:59:59.999Z" },
    { name: "next week across a year end", text: "next week", now: "2025-12-31T23:59:59.999Z", expected: "2026-01-07T23:59:59.999Z" },
    { name: "next month across a year end, clamped", text: "next month", now: "2025-12-31T12:00:00.000Z", expected: "2026-01-31T12:00:00.000Z" },
    { name: "next month from Jan 31 in a leap year", text: "next month", now: "2028-01-31T06:00:00.000Z", expected: "2028-02-29T06:00:00.000Z" },
    { name: "last month from Mar 31 in a leap year", text: "last month", now: "2024-03-31T06:00:00.000Z", expected: "2024-02-29T06:00:00.000Z" },
    { name: "last year from Feb 29", text: "last year", now: "2024-02-29T12:00:00.000Z", expected: "2023-02-28T12:00:00.000Z" },
    { name: "year_ago from Feb 29", text: "year_ago", now: "2024-02-29T12:00:00.000Z", expected: "2023-02-28T12:00:00.000Z" },
    { name: "next year from Feb 29", text: "next year", now: "2024-02-29T12:00:00.000Z", expected: "2025-02-28T12:00:00.000Z" },
    { name: "start_of_month on the 1st at midnight", text: "start_of_month", now: "2026-05-01T00:00:00.000Z", expected: "2026-05-01T00:00:00.000Z" },
    { name: "start_of_month on the last moment of a month", text: "start_of_month", now: "2026-02-28T23:59:59.999Z", expected: "2026-02-01T00:00:00.000Z" },
    { name: "start_of_year on Dec 31", text: "start_of_year", now: "2025-12-31T23:59:59.999Z", expected: "2025-01-01T00:00:00.000Z" },
    { name: "a year below 100 stays as given", text: "start_of_year", now: "0050-06-15T00:00:00.000Z", expected: "0050-01-01T00:00:00.000Z" },
  ])("$name", ({ text, now, expected }) => {
    expect(iso(text, now)).toBe(expected);
  });

  it.each([
    { text: " Today ", expected: "2026-03-31T08:15:30.123Z" },
    { text: "LAST WEEK", expected: "2026-02-28T08:15:30.123Z" },
    { text: "\tStart_Of_Year\n", expected: "2026-01-01T00:00:00.000Z" },
  ])("ignores case and surrounding space: $text", ({ text, expected }) => {
    expect(iso(text, NOW)).toBe(expected);
  });

  it.each(["", "now", "lastweek", "last_week", "last  week", "next-year", "2026-01-01", "constructor", "toString", "__proto__"])(
    "%j is not a smart date",
    (text) => {
      expect(resolveSmartDate(text, new Date(NOW))).toBeUndefined();
    },
  );

  it("does not change the given now, and gives the same answer twice", () => {
    const now = new Date(NOW);
    const a = resolveSmartDate("next month", now);
    const b = resolveSmartDate("next month", now);
    expect(now.toISOString()).toBe(NOW);
    expect(a).not.toBe(b);
    expect(a?.getTime()).toBe(b?.getTime());
    expect(resolveSmartDate("today", now)).not.toBe(now);
  });
});
