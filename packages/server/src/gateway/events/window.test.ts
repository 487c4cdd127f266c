import { createFakeClock, createMemoryStorage, createRecordEngine, formatTimestamp } from "@records-service/core";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addDays, datePrefixes, selectBookingPage, selectBookings } from "./window.js";

describe("datePrefixes", () => {
  it("covers exactly the days of the span, with whole months and tens where they fit", () => {
    expect(datePrefixes("2026-01-28", "2026-03-12")).toEqual(["2026-01-28", "2026-01-29", "2026-01-3", "2026-02", "2026-03-0", "2026-03-10", "2026-03-11", "2026-03-12"]);
    expect(datePrefixes("2024-02-20", "2024-02-29")).toEqual(["2024-02-2"]);
    expect(datePrefixes("2026-05-05", "2026-05-04")).toEqual([]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 140 }), (start, length) => {
        const from = addDays("2024-01-01", start);
        const to = addDays(from, length);
        const prefixes = datePrefixes(from, to);
        for (let d = addDays(from, -45); d <= addDays(to, 45); d = addDays(d, 1)) {
          expect(prefixes.some((p) => d.startsWith(p))).toBe(d >= from && d <= to);
        }
        expect(prefixes.length).toBeLessThanOrEqual(26);
      }),
      { numRuns: 200 },
    );
  });
});

/** The window's first query reads `start_date` by date prefixes: across a year's end they must run on. */
describe("the default window", () => {
  it("holds the bookings of every month it spans, across a year's end, and none outside it", async () => {
    const now = new Date("2026-01-02T12:00:00.000Z");
    const storage = createMemoryStorage();
    await storage.createFlock({ identifier: "demo", name: "Demo", created: formatTimestamp(now) });
    const engine = createRecordEngine({ storage, clock: createFakeClock(now) });
    // Today 2026-01-02: the window is 2025-12-19 .. 2026-04-02.
    const days = ["2025-11-30", "2025-12-18", "2025-12-19", "2025-12-31", "2026-01-01", "2026-02-15", "2026-04-02", "2026-04-03", "2026-05-01"];
    for (const d of days) await engine.create("demo", "booking", { title: d, start_date: d });
    const titles = (await selectBookings(engine, "demo", "window", "2026-01-02")).map((b) => b.data.title);
    expect(titles).toEqual(["2025-12-19", "2025-12-31", "2026-01-01", "2026-02-15", "2026-04-02"]);
    const page = await selectBookingPage(engine, "demo", "window", "2026-01-02", { page: 1, pageSize: 2 });
    expect(page.total).toBe(5);
    expect(page.bookings.map((b) => b.data.title)).toEqual(["2025-12-19", "2025-12-31"]);
  });
});
