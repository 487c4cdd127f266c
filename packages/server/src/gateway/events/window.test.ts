import { createFakeClock, createMemoryStorage, createRecordEngine, formatTimestamp } from "@records-service/core";
import { describe, expect, it } from "vitest";
import { selectBookingPage, selectBookings } from "./window.js";

/** The window's first query reads `start_date` by month prefixes: across a year's end they must run on. */
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
