import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RecordsError } from "../errors.js";
import type { StoredRecord } from "../model/record.js";
import { createFakeClock, formatDate } from "../time.js";
import { type DueEvent, catchUpStart, dedupeKey, dueDailyFireTime, dueEvents, dueWindow, dueWindows } from "./due.js";

const DAY = 86_400_000;
const HOUR = 3_600_000;

function record(id: number, data: Record<string, unknown>, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: id.toString(16).padStart(24, "0"),
    flock: "demo",
    type: "member",
    state: "updated",
    data,
    displayValue: "",
    created: "2025-06-01T09:00:00.000000",
    lastUpdated: "2025-06-01T09:00:00.000000",
    version: 1,
    ...over,
  };
}

/**
 * Runs the scheduler with a fake clock from `from` to `to` in steps of `stepMs`, feeding
 * each window (lastRun, now] to `dueEvents`, and returns every event it produced as
 * `trigger@fire-day`, in order. `change` may edit the records when the clock passes a time.
 */
function simulate(
  records: StoredRecord[],
  opts: { from: string; to: string; stepMs?: number; paid?: Set<string>; triggerNames?: string[]; change?: [string, () => void] },
): { seen: string[]; events: DueEvent[] } {
  const clock = createFakeClock(opts.from);
  const end = new Date(opts.to).getTime();
  const events: DueEvent[] = [];
  let changed = false;
  while (clock.now().getTime() < end) {
    const lastRun = clock.now();
    clock.advance(opts.stepMs ?? 6 * HOUR);
    if (opts.change && !changed && clock.now().getTime() >= new Date(opts.change[0]).getTime()) {
      opts.change[1]();
      changed = true;
    }
    const due = dueEvents(records, { lastRun, now: clock.now() }, { paidUris: opts.paid ?? new Set(), triggerNames: opts.triggerNames });
    for (const e of due) {
      // The window caught it within one step of its fire time, never before.
      expect(e.fireAt.getTime()).toBeGreaterThan(lastRun.getTime());
      expect(e.fireAt.getTime()).toBeLessThanOrEqual(clock.now().getTime());
    }
    events.push(...due);
  }
  return { seen: events.map((e) => `${e.name}@${formatDate(e.fireAt)}`), events };
}

const NEW_2026 = [
  "new_membership_1d@2026-01-02", "new_membership_2d@2026-01-03", "new_membership_1wk@2026-01-08",
  "new_membership_2wk@2026-01-15", "new_membership_3wk@2026-01-22", "new_membership_4wk@2026-01-29",
  "new_membership_180d@2026-06-30",
];
const UNPAID_2026 = [
  "no_payment_membership_1d@2026-01-02", "no_payment_membership_1wk@2026-01-08", "no_payment_membership_2wk@2026-01-15",
  "no_payment_membership_3wk@2026-01-22", "no_payment_membership_4wk@2026-01-29", "no_payment_membership_90d@2026-04-01",
];
const EXPIRING_2026 = [
  "expiring_6wk@2026-11-19", "expiring_4wk@2026-12-03", "expiring_3wk@2026-12-10",
  "expiring_2wk@2026-12-17", "expiring_1wk@2026-12-24", "expiring_soon@2026-12-28",
];
const RENEWING_2026 = [
  "renewing_4wk@2026-12-03", "renewing_3wk@2026-12-10", "renewing_2wk@2026-12-17",
  "renewing_1wk@2026-12-24", "renewing_soon@2026-12-28",
];
/** Deprecated, but still fired: these memberships have no direct debit mandate. */
const RENEWING_NO_DD_2026 = RENEWING_2026.map((s) => s.replace("@", "_no_dd_mandate@"));
const LAPSED_2026 = [
  "lapsed_1d@2027-01-01", "lapsed_1wk@2027-01-07", "lapsed_2wk@2027-01-14", "lapsed_3wk@2027-01-21",
  "lapsed_4wk@2027-01-28", "lapsed_90d@2027-03-31", "lapsed_180d@2027-06-29",
];
const YEAR = { start_date: "2026-01-01", end_date: "2026-12-31" };
const URI = "/demo/member/000000000000000000000001/";

/** Sorts like `dueEvents` across windows: by day, then name (code units). */
function byDay(list: string[]): string[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...list].sort((a, b) => cmp(a.split("@")[1]!, b.split("@")[1]!) || cmp(a.split("@")[0]!, b.split("@")[0]!));
}

describe("dueEvents over a membership's life (fake clock, daily runs at 03:00)", () => {
  it.each([
    {
      name: "a new, unpaid membership without auto renew",
      data: { ...YEAR, auto_renew: false },
      paid: false,
      expected: [...NEW_2026, ...UNPAID_2026, ...EXPIRING_2026, ...LAPSED_2026],
    },
    {
      name: "a paid membership without auto renew (auto_renew unset)",
      data: { ...YEAR },
      paid: true,
      expected: [...NEW_2026, ...EXPIRING_2026, ...LAPSED_2026],
    },
    {
      name: "a paid membership with auto renew",
      data: { ...YEAR, auto_renew: true },
      paid: true,
      expected: [...NEW_2026, ...RENEWING_2026, ...RENEWING_NO_DD_2026, ...LAPSED_2026],
    },
    {
      name: "auto renew written as a string",
      data: { ...YEAR, auto_renew: "TRUE" },
      paid: true,
      expected: [...NEW_2026, ...RENEWING_2026, ...RENEWING_NO_DD_2026, ...LAPSED_2026],
    },
    {
      name: "a cancelled membership",
      data: { ...YEAR, membership_record_status: "Cancelled" },
      paid: true,
      expected: [...NEW_2026, "cancelled_membership@2026-12-31"],
    },
    {
      name: "a membership already renewed into a new record",
      data: { ...YEAR, membership_record_status: "renewed" },
      paid: true,
      expected: [...NEW_2026],
    },
    {
      name: "a renewal record",
      data: { ...YEAR, is_renewal: true },
      paid: true,
      expected: ["renewed_membership_1wk@2026-01-08", "renewed_membership_2wk@2026-01-15", ...EXPIRING_2026, ...LAPSED_2026],
    },
    {
      name: "no dates",
      data: { auto_renew: false },
      paid: false,
      expected: [],
    },
    {
      name: "unreadable dates",
      data: { start_date: "soon", end_date: "2026-02-30", auto_renew: false },
      paid: false,
      expected: [],
    },
  ])("$name", ({ data, paid, expected }) => {
    const { seen } = simulate([record(1, data)], {
      from: "2025-12-01T03:00:00Z",
      to: "2027-08-01T03:00:00Z",
      stepMs: DAY,
      paid: new Set(paid ? [URI] : []),
    });
    expect(seen).toEqual(byDay(expected));
  });

  it("counts timestamps to the minute, and types `membership` too", () => {
    const m = record(1, { start_date: "2026-01-01T14:30:00.000000", end_date: "2026-12-31T14:30:00" }, { type: "membership" });
    const { events } = simulate([m], {
      from: "2025-12-30T00:00:00Z",
      to: "2026-01-10T00:00:00Z",
      stepMs: 60_000,
      triggerNames: ["new_membership_1d", "new_membership_1wk"],
    });
    expect(events.map((e) => [e.name, e.fireAt.toISOString(), e.contextUri])).toEqual([
      ["new_membership_1d", "2026-01-02T14:30:00.000Z", "/demo/membership/000000000000000000000001/"],
      ["new_membership_1wk", "2026-01-08T14:30:00.000Z", "/demo/membership/000000000000000000000001/"],
    ]);
  });

  it("emits nothing for deleted records or other types", () => {
    const records = [record(1, { ...YEAR }, { state: "deleted" }), record(2, { ...YEAR }, { type: "person" })];
    expect(simulate(records, { from: "2025-12-01T03:00:00Z", to: "2027-08-01T03:00:00Z", stepMs: DAY }).seen).toEqual([]);
  });

  it("fires the deprecated families only under their conditions", () => {
    const names = ["renewing_1wk_no_dd_mandate", "renewing_1wk_commerce", "renewing_1wk"];
    const records = [
      record(1, { ...YEAR, auto_renew: true, has_direct_debit_mandate: false }),
      record(2, { ...YEAR, auto_renew: true, has_direct_debit_mandate: true, source: "commerce" }),
      record(3, { ...YEAR, auto_renew: false, source: "commerce" }),
    ];
    const { events } = simulate(records, { from: "2026-12-01T00:00:00Z", to: "2027-01-01T00:00:00Z", triggerNames: names });
    expect(events.map((e) => `${e.name} ${e.record.id.slice(-1)}`)).toEqual([
      "renewing_1wk 1",
      "renewing_1wk 2",
      "renewing_1wk_commerce 2",
      "renewing_1wk_no_dd_mandate 1",
    ]);
  });

  it("counts other types from their own fields", () => {
    const records = [
      record(1, { start_date: "2026-05-10", person_ref: URI }, { type: "ticket" }),
      record(2, { start_date: "2026-05-10" }, { type: "booking" }),
      record(3, { date: "2026-05-10" }, { type: "invoice" }),
      record(4, {}, { type: "evidence", created: "2026-05-10T08:00:00.000000" }),
    ];
    const { seen } = simulate(records, {
      from: "2026-05-01T00:00:00Z",
      to: "2026-06-30T00:00:00Z",
      triggerNames: ["ticketed_event_1wk", "ticketed_event_minus_1d", "vm_start_minus_30d", "no_payment_invoice_1wk", "evidence_draft_reference_1wk"],
    });
    expect(seen).toEqual([
      "ticketed_event_1wk@2026-05-03",
      "ticketed_event_minus_1d@2026-05-11",
      "no_payment_invoice_1wk@2026-05-17", // 00:00
      "evidence_draft_reference_1wk@2026-05-17", // 08:00, a week after its creation
      "vm_start_minus_30d@2026-06-09",
    ]);
  });
});

describe("exactly once", () => {
  it("a renewal moving end_date re-arms the expiry events; the old date's remaining ones never fire", () => {
    const m = record(1, { start_date: "2025-07-01", end_date: "2026-06-30", auto_renew: false });
    const { seen, events } = simulate([m], {
      from: "2026-05-01T00:00:00Z",
      to: "2027-07-10T00:00:00Z",
      triggerNames: ["expiring_6wk", "expiring_2wk", "expiring_1wk", "lapsed_1d"],
      change: ["2026-06-20T00:00:00Z", () => void (m.data.end_date = "2027-06-30")],
    });
    expect(seen).toEqual([
      "expiring_6wk@2026-05-19",
      "expiring_2wk@2026-06-16",
      // renewed on 2026-06-20: expiring_1wk (06-23) and lapsed_1d (07-01) of the old date do not fire
      "expiring_6wk@2027-05-19",
      "expiring_2wk@2027-06-16",
      "expiring_1wk@2027-06-23",
      "lapsed_1d@2027-07-01",
    ]);
    expect(new Set(events.map((e) => e.key)).size).toBe(events.length);
  });

  it("a window run again (a crash before lastRun was saved) yields the same keys, which a store drops", () => {
    const records = [record(1, { ...YEAR, auto_renew: false })];
    const window = { lastRun: new Date("2026-12-16T12:00:00Z"), now: new Date("2026-12-17T12:00:00Z") };
    const first = dueEvents(records, window, { paidUris: new Set() });
    const again = dueEvents(records, window, { paidUris: new Set() });
    expect(first.map((e) => e.name)).toEqual(["expiring_2wk"]);
    expect(again.map((e) => e.key)).toEqual(first.map((e) => e.key));
  });

  it("a record given twice yields its events once", () => {
    const r = record(1, { ...YEAR, auto_renew: false });
    const window = { lastRun: new Date("2026-12-16T12:00:00Z"), now: new Date("2026-12-17T12:00:00Z") };
    expect(dueEvents([r, r], window, { paidUris: new Set() })).toHaveLength(1);
  });

  it("a record created today whose plain-date event was due at 00:00 today fires at the next run, once", () => {
    // Created 10:00 UTC with end_date today+14: expiring_2wk's fire time (00:00 today) is before the window.
    const at = "2026-03-02T10:00:00.000000";
    const created = record(1, { end_date: "2026-03-16", auto_renew: false }, { type: "membership", created: at, lastUpdated: at });
    const clock = createFakeClock("2026-03-02T09:59:30Z");
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      const lastRun = clock.now();
      clock.advance(60_000); // runs every minute
      const due = dueEvents([created], { lastRun, now: clock.now() }, { triggerNames: ["expiring_2wk", "expiring_3wk"] });
      names.push(...due.map((e) => `${e.name}@${e.fireAt.toISOString()}@${clock.now().toISOString()}`));
    }
    // expiring_3wk (2026-02-23) lies before the creation day: not replayed.
    expect(names).toEqual(["expiring_2wk@2026-03-02T00:00:00.000Z@2026-03-02T10:00:30.000Z"]);
  });

  it("an old record edited today replays nothing from before today; one moved onto today fires", () => {
    const edited = "2026-03-02T15:00:00.000000";
    const old = record(1, { end_date: "2026-03-10", auto_renew: false }, { type: "membership", lastUpdated: edited });
    const moved = record(2, { end_date: "2026-03-16", auto_renew: false }, { type: "membership", lastUpdated: edited });
    const later = record(3, { end_date: "2026-03-16", auto_renew: false }, { type: "membership", lastUpdated: "2026-03-02T15:01:00.000000" });
    const window = { lastRun: new Date("2026-03-02T14:59:00Z"), now: new Date("2026-03-02T15:00:00Z") };
    const due = dueEvents([old, moved, later], window, { triggerNames: ["expiring_2wk", "expiring_1wk"] });
    // old's expiring_2wk (02-24) and expiring_1wk (03-03, not yet due) stay silent; `later` was written after `now`.
    expect(due.map((e) => `${e.name} ${e.record.id} ${e.fireAt.toISOString()}`)).toEqual([
      `expiring_2wk ${moved.id} 2026-03-02T00:00:00.000Z`,
    ]);
    // A record written before the window gets no catch-up.
    expect(catchUpStart(moved, { lastRun: new Date("2026-03-02T15:00:00Z"), now: new Date("2026-03-02T16:00:00Z") })).toBeNull();
    expect(catchUpStart(moved, window)).toBe(Date.parse("2026-03-02T00:00:00Z"));
    expect(catchUpStart({ ...moved, lastUpdated: "not a time" }, window)).toBeNull();
  });

  it("any split of a period into windows yields exactly the events of the whole period", () => {
    const records = [
      record(1, { start_date: "2026-01-01", end_date: "2026-03-01", auto_renew: false }),
      record(2, { start_date: "2026-01-15T10:00:00", end_date: "2026-02-20T23:59:59.999999", auto_renew: true }),
      record(3, { start_date: "2026-02-01T00:00:00.5", end_date: "2026-02-28T06:00", is_renewal: true }),
    ];
    const from = new Date("2025-12-01T00:00:00Z").getTime();
    const to = new Date("2026-04-01T00:00:00Z").getTime();
    const opts = { paidUris: new Set<string>() };
    const whole = dueEvents(records, { lastRun: new Date(from), now: new Date(to) }, opts).map((e) => e.key);
    expect(whole.length).toBeGreaterThan(30);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: from + 1, max: to - 1 }), { maxLength: 60 }), (cuts) => {
        const points = [from, ...cuts.sort((a, b) => a - b), to];
        const keys: string[] = [];
        for (let i = 1; i < points.length; i++) {
          const window = { lastRun: new Date(points[i - 1]!), now: new Date(points[i]!) };
          keys.push(...dueEvents(records, window, opts).map((e) => e.key));
        }
        expect(keys.sort()).toEqual([...whole].sort());
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe("dueWindow", () => {
  it.each([
    { field: "end_date", offset: -14, lastRun: "2026-03-01T10:00:00Z", now: "2026-03-01T10:01:00Z", after: "2026-03-15T10:00:00.000000", upTo: "2026-03-15T10:01:00.000000" },
    { field: "end_date", offset: 90, lastRun: "2026-03-01T00:00:00Z", now: "2026-03-02T00:00:00Z", after: "2025-12-01T00:00:00.000000", upTo: "2025-12-02T00:00:00.000000" },
    { field: "start_date", offset: 0, lastRun: "2026-03-01T00:00:00Z", now: "2026-03-01T00:00:00.001Z", after: "2026-03-01T00:00:00.000000", upTo: "2026-03-01T00:00:00.001000" },
  ])("$field $offset d in ($lastRun, $now]", ({ field, offset, lastRun, now, after, upTo }) => {
    const w = dueWindow(field, offset, new Date(lastRun), new Date(now));
    expect(w).toMatchObject({ field, afterText: after, upToText: upTo });
    expect(w.upTo.getTime() - w.after.getTime()).toBe(new Date(now).getTime() - new Date(lastRun).getTime());
  });

  // Stored text compares with the bounds in the order of the instants it names.
  it.each([
    ["2026-03-01", "2026-02-28T23:59:59.999999", "2026-03-01T00:00:00.000000", true],
    ["2026-03-01", "2026-03-01T00:00:00.000000", "2026-03-01T01:00:00.000000", false],
    ["2026-03-01", "2026-02-28T00:00:00.000000", "2026-02-28T23:59:59.999999", false],
    ["2026-03-01T10:00:00", "2026-03-01T09:59:59.999999", "2026-03-01T10:00:00.000000", true],
    ["2026-03-01T10:00:00", "2026-03-01T10:00:00.000000", "2026-03-01T10:00:01.000000", false],
    ["2026-03-01T10:00:00.5", "2026-03-01T10:00:00.400000", "2026-03-01T10:00:00.500000", true],
    ["2026-03-01T10:00:00.5", "2026-03-01T10:00:00.500000", "2026-03-01T10:00:00.600000", false],
  ])("%s in (%s, %s]: %s", (stored, after, upTo, due) => {
    const window = { lastRun: new Date(`${after.slice(0, 23)}Z`), now: new Date(`${upTo.slice(0, 23)}Z`) };
    const r = record(1, { start_date: stored });
    // new_membership_1d counts from start_date + 1 day; shift the window by that day.
    const shifted = { lastRun: new Date(window.lastRun.getTime() + DAY), now: new Date(window.now.getTime() + DAY) };
    expect(dueEvents([r], shifted, { triggerNames: ["new_membership_1d"] })).toHaveLength(due ? 1 : 0);
  });
});

describe("dueWindows: finding candidates by index", () => {
  it("gives one window per date-relative trigger and ignores the others", () => {
    const window = { lastRun: new Date("2026-03-01T00:00:00Z"), now: new Date("2026-03-01T00:01:00Z") };
    const ws = dueWindows(window, { triggerNames: ["expiring_2wk", "contact_created", "lapsed_90d", "expiring_2wk"] });
    expect(ws.map((w) => [w.name, w.field, w.afterText, w.upToText, w.resourceTypes])).toEqual([
      ["expiring_2wk", "end_date", "2026-03-15T00:00:00.000000", "2026-03-15T00:01:00.000000", ["member", "membership"]],
      ["lapsed_90d", "end_date", "2025-12-01T00:00:00.000000", "2025-12-01T00:01:00.000000", ["member", "membership"]],
    ]);
  });

  it("covers every date-relative trigger by default", () => {
    const ws = dueWindows({ lastRun: new Date(0), now: new Date(1) });
    expect(ws.map((w) => w.name)).toContain("form_score_review_by_minus_1wk");
    expect(ws.map((w) => w.name)).not.toContain("contact_created");
  });

  it("candidates found by the windows' text ranges give the same events as a full scan", () => {
    const records = Array.from({ length: 400 }, (_, i) =>
      record(i + 1, {
        start_date: formatDate(new Date(Date.UTC(2025, 0, 1) + i * 2 * DAY)),
        end_date: formatDate(new Date(Date.UTC(2026, 0, 1) + i * 2 * DAY)),
        auto_renew: i % 3 === 0,
      }),
    );
    const window = { lastRun: new Date("2026-02-10T00:00:00Z"), now: new Date("2026-02-11T00:00:00Z") };
    const opts = { paidUris: new Set<string>() };
    const candidates = dueWindows(window).flatMap((w) =>
      records.filter((r) => {
        const v = r.data[w.field];
        return w.resourceTypes.includes(r.type) && typeof v === "string" && v > w.afterText && v <= w.upToText;
      }),
    );
    const viaIndex = dueEvents(candidates, window, opts);
    const scan = dueEvents(records, window, opts);
    expect(viaIndex.map((e) => e.key)).toEqual(scan.map((e) => e.key));
    expect(scan.length).toBeGreaterThan(5);
  });
});

describe("options and edge cases", () => {
  it("requires paidUris for the no_payment triggers", () => {
    const window = { lastRun: new Date(0), now: new Date(1) };
    expect(() => dueEvents([], window)).toThrow(/paidUris/);
    expect(() => dueEvents([], window, { triggerNames: ["expiring_2wk"] })).not.toThrow();
  });

  it("refuses unknown trigger names", () => {
    expect(() => dueEvents([], { lastRun: new Date(0), now: new Date(1) }, { triggerNames: ["expiring_9wk"] })).toThrow(RecordsError);
  });

  it("an empty or backwards window yields nothing", () => {
    const r = record(1, { ...YEAR });
    const at = new Date("2026-01-02T00:00:00Z");
    expect(dueEvents([r], { lastRun: at, now: at }, { paidUris: new Set() })).toEqual([]);
    expect(dueEvents([r], { lastRun: at, now: new Date(at.getTime() - DAY) }, { paidUris: new Set() })).toEqual([]);
  });
});

describe("dedupeKey", () => {
  it.each([
    ["2026-03-01", "2026-03-01T00:00:00.000000"],
    ["2026-03-01T00:00", "2026-03-01T00:00:00.000000"],
    [new Date("2026-03-01T00:00:00Z"), "2026-03-01T00:00:00.000000"],
  ])("normalises %s", (date, normal) => {
    expect(dedupeKey("expiring_2wk", URI, date)).toBe(`expiring_2wk ${URI} ${normal}`);
  });

  it("differs by trigger, record and date", () => {
    const base = dedupeKey("expiring_2wk", URI, "2026-03-01");
    expect(dedupeKey("expiring_1wk", URI, "2026-03-01")).not.toBe(base);
    expect(dedupeKey("expiring_2wk", "/demo/member/000000000000000000000002/", "2026-03-01")).not.toBe(base);
    expect(dedupeKey("expiring_2wk", URI, "2026-03-02")).not.toBe(base);
  });
});

describe("dueDailyFireTime", () => {
  it.each([
    ["2026-03-01T23:59:00Z", "2026-03-02T00:00:00Z", "2026-03-02T00:00:00.000Z"],
    ["2026-03-02T00:00:00Z", "2026-03-02T00:01:00Z", null],
    ["2026-03-02T00:01:00Z", "2026-03-02T12:00:00Z", null],
    ["2026-02-20T10:00:00Z", "2026-03-02T12:00:00Z", "2026-03-02T00:00:00.000Z"],
  ])("(%s, %s] → %s", (lastRun, now, expected) => {
    expect(dueDailyFireTime({ lastRun: new Date(lastRun), now: new Date(now) })?.toISOString() ?? null).toBe(expected);
  });
});
