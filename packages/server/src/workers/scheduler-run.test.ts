import {
  createFakeClock,
  createMemoryStorage,
  createRecordEngine,
  createSequentialIds,
  parseTimestamp,
  validateTriggers,
  type Storage,
  type StoredRecord,
} from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_DEFAULTS } from "../config/schema.js";
import { CHANGES_PURGE_LIMITS, computeDueEvents, LAST_RUN_SETTING_PREFIX, runSchedulerOnce, scheduledTriggers } from "./scheduler-run.js";

/** The settings' default retention of the change feed (7 days). */
const RETENTION_DAYS = CONFIG_DEFAULTS.changes.retentionDays;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const HOOK = { action: "send-json-webhook", url: "https://example.org/hook" };

const { triggers } = validateTriggers([
  { flock: "demo", trigger: "expiring_2wk", ...HOOK },
  { flock: "demo", trigger: "lapsed_1d", ...HOOK },
  { flock: "demo", trigger: "new_membership_1wk", ...HOOK },
  { flock: "demo", trigger: "no_payment_membership_1wk", ...HOOK },
  { flock: "demo", trigger: "action_required_summary_daily", ...HOOK },
  { flock: "demo", trigger: "contact_created", ...HOOK }, // action-time: not the scheduler's
  { flock: "demo", trigger: "renewing_1wk", ...HOOK, active: false },
  { flock: "other", trigger: "lapsed_1d", ...HOOK }, // a flock that does not exist
]);

const adapters: [string, () => Storage][] = [
  ["memory", () => createMemoryStorage()],
  ["sqlite", () => createSqliteStorage({ path: ":memory:" })],
];

let storage: Storage | undefined;
afterEach(async () => {
  await storage?.close();
  storage = undefined;
});

async function setup(create: () => Storage, start = "2026-03-01T00:00:00.000Z") {
  storage = create();
  const clock = createFakeClock(start);
  const engine = createRecordEngine({ storage, clock, ids: createSequentialIds(), triggers: () => triggers });
  await storage.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
  const s = storage;
  /** Runs the scheduler at the clock's time and returns the names and URIs it emitted. */
  const run = async () => {
    const before = new Set((await allEvents(s)).map((e) => e.id));
    await runSchedulerOnce({ storage: s, engine, triggers, changesRetentionDays: RETENTION_DAYS }, clock.now());
    return (await allEvents(s)).filter((e) => !before.has(e.id));
  };
  return { storage: s, clock, engine, run };
}

async function allEvents(s: Storage, name?: string): Promise<StoredRecord[]> {
  const page = await s.listRecords("demo", "data_event", { filters: [], mode: "AND", states: ["updated", "deleted"], page: 1, pageSize: 1500 });
  return name === undefined ? page.records : page.records.filter((e) => e.data.name === name);
}

const uriOf = (r: StoredRecord) => `/${r.flock}/${r.type}/${r.id}/`;

describe.each(adapters)("runSchedulerOnce (%s)", (_name, create) => {
  it("emits each date-relative event once, on its day, and a renewal arms them again", async () => {
    const { engine, clock, run } = await setup(create);
    const a = await engine.create("demo", "membership", { start_date: "2025-03-20", end_date: "2026-03-20", auto_renew: false });
    const b = await engine.create("demo", "membership", { start_date: "2025-03-20", end_date: "2026-03-20", auto_renew: true });
    const c = await engine.create("demo", "member", { start_date: "2026-03-03", end_date: "2027-03-03" });
    const paid = await engine.create("demo", "membership", { start_date: "2026-03-03", end_date: "2027-03-03" });
    await engine.create("demo", "payment", { amount: 10, membership_ref: uriOf(paid) });
    const deleted = await engine.create("demo", "membership", { start_date: "2026-03-04", end_date: "2026-03-05" });
    await engine.delete("demo", "membership", deleted.id);

    expect(await run()).toEqual([]); // the first run records its time only
    const seen: { name: string; ref: unknown; fireAt: string; at: string }[] = [];
    const step = 5 * HOUR + 17 * 60_000; // uneven, so windows straddle midnight at different times
    const runUntil = async (until: string) => {
      while (clock.now().getTime() + step <= Date.parse(until)) {
        clock.advance(step);
        for (const e of await run()) {
          seen.push({ name: String(e.data.name), ref: e.data.context_ref, fireAt: String(e.data.fire_at), at: clock.now().toISOString() });
        }
      }
    };
    await runUntil("2026-03-10T12:00:00Z");
    // The renewal moves A's end date: its old lapsed_1d (2026-03-21) must not fire; the new date's events will.
    await engine.update("demo", "membership", a.id, { end_date: "2026-04-30" });
    await runUntil("2026-05-05T00:00:00Z");

    const expected = [
      { name: "expiring_2wk", ref: uriOf(a), fireAt: "2026-03-06T00:00:00.000000" },
      { name: "new_membership_1wk", ref: uriOf(c), fireAt: "2026-03-10T00:00:00.000000" },
      { name: "new_membership_1wk", ref: uriOf(paid), fireAt: "2026-03-10T00:00:00.000000" },
      { name: "no_payment_membership_1wk", ref: uriOf(c), fireAt: "2026-03-10T00:00:00.000000" },
      { name: "lapsed_1d", ref: uriOf(b), fireAt: "2026-03-21T00:00:00.000000" },
      { name: "expiring_2wk", ref: uriOf(a), fireAt: "2026-04-16T00:00:00.000000" },
      { name: "lapsed_1d", ref: uriOf(a), fireAt: "2026-05-01T00:00:00.000000" },
    ];
    const relative = seen.filter((e) => e.name !== "action_required_summary_daily");
    const key = (e: { name: string; ref: unknown; fireAt: string }) => `${e.fireAt} ${e.name} ${String(e.ref)}`;
    expect(relative.map(key).sort()).toEqual(expected.map(key).sort());
    for (const e of relative) {
      // Emitted by the first run at or after its time.
      const late = Date.parse(e.at) - parseTimestamp(e.fireAt)!.getTime();
      expect(late, key(e)).toBeGreaterThanOrEqual(0);
      expect(late, key(e)).toBeLessThan(step);
    }
    // The daily summary: once per day, at 00:00 UTC, from the first midnight after the first run.
    const daily = seen.filter((e) => e.name === "action_required_summary_daily").map((e) => e.fireAt.slice(0, 10));
    expect(daily).toHaveLength(64); // 30 days of March from the 2nd, 30 of April, 4 of May
    expect(new Set(daily).size).toBe(daily.length);
    expect(daily[0]).toBe("2026-03-02");
    expect(daily.at(-1)).toBe("2026-05-04");
  });

  it("stores data events in the contract's shape, with their jobs and a wake-up for the outbox", async () => {
    const { storage: s, engine, clock, run } = await setup(create);
    const m = await engine.create("demo", "membership", { end_date: "2026-03-16", auto_renew: false });
    const woken: number[] = [];
    engine.onJobsQueued((jobs) => woken.push(jobs.length));
    await run();
    clock.advance(DAY);
    const [event, ...rest] = (await run()).filter((e) => e.data.name !== "action_required_summary_daily");
    expect(rest).toEqual([]);
    expect(event!.data).toEqual({
      name: "expiring_2wk",
      event: "expiring",
      variation: "2wk",
      fire_at: "2026-03-02T00:00:00.000000",
      context_ref: uriOf(m),
      tags: [],
      expires_at: "2028-03-02T00:00:00.000000",
      dedupe_key: `expiring_2wk ${uriOf(m)} 2026-03-16T00:00:00.000000`,
    });
    const jobs = await s.listJobs({ flock: "demo" });
    expect(jobs.filter((j) => j.dataEventId === event!.id).map((j) => [j.trigger, j.action, j.status])).toEqual([
      ["expiring_2wk", "send-json-webhook", "pending"],
    ]);
    expect(woken.length).toBeGreaterThan(0);
  });

  it("fires a plain-date event due earlier the day a record is created, once; an edit replays nothing older", async () => {
    const { engine, clock, run } = await setup(create, "2026-03-02T09:00:00.000Z");
    const old = await engine.create("demo", "membership", { end_date: "2026-03-20", auto_renew: false });
    await run();
    const runs = async (n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        clock.advance(60_000);
        for (const e of await run()) out.push(`${String(e.data.name)} ${String(e.data.context_ref)} ${String(e.data.fire_at)}`);
      }
      return out;
    };
    await runs(3);
    // 10:00: created with end_date today+14; expiring_2wk was due at 00:00 today.
    clock.set("2026-03-02T10:00:00.000Z");
    const m = await engine.create("demo", "membership", { end_date: "2026-03-16", auto_renew: false });
    // The old membership, edited today: its expiring_2wk (2026-03-06) is ahead, its 2wk-old past stays past.
    await engine.update("demo", "membership", old.id, { note: "edited" });
    expect(await runs(5)).toEqual([`expiring_2wk ${uriOf(m)} 2026-03-02T00:00:00.000000`]);
    // Edited again: the dedupe key keeps it to once.
    await engine.update("demo", "membership", m.id, { note: "edited" });
    expect(await runs(2)).toEqual([]);
  });

  it("repeats nothing after a crash before the run time was stored", async () => {
    const { storage: s, engine, clock, run } = await setup(create);
    await engine.create("demo", "membership", { end_date: "2026-03-20", auto_renew: false });
    await engine.create("demo", "membership", { end_date: "2026-03-21", auto_renew: false });
    await run();
    const firstRun = await s.getSetting(`${LAST_RUN_SETTING_PREFIX}demo`);
    clock.advance(8 * DAY);
    expect((await run()).filter((e) => e.data.name === "expiring_2wk")).toHaveLength(2);
    // As if the process died after emitting and before storing the run time: the same window again.
    await s.putSetting(`${LAST_RUN_SETTING_PREFIX}demo`, firstRun!);
    expect(await run()).toEqual([]);
    expect(await run()).toEqual([]); // and the same instant twice
    expect((await s.listJobs({ flock: "demo" })).filter((j) => j.trigger === "expiring_2wk")).toHaveLength(2);
  });

  it("moves the run time of flocks without scheduled triggers, so a trigger added later replays nothing", async () => {
    const { storage: s, engine, clock } = await setup(create);
    await s.createFlock({ identifier: "quiet", name: "Quiet", created: "2026-01-01T00:00:00.000000" });
    await engine.create("quiet", "membership", { end_date: "2026-03-20", auto_renew: false });
    const quiet = validateTriggers([{ flock: "quiet", trigger: "expiring_2wk", ...HOOK }]).triggers;
    const runWith = (t: typeof triggers) => runSchedulerOnce({ storage: s, engine, triggers: t, changesRetentionDays: RETENTION_DAYS }, clock.now());
    await runWith([]);
    clock.advance(10 * DAY); // past the membership's expiring_2wk (2026-03-06), with no trigger
    await runWith([]);
    expect(await s.getSetting(`${LAST_RUN_SETTING_PREFIX}quiet`)).toBe("2026-03-11T00:00:00.000000");
    clock.advance(HOUR);
    const report = await runWith(quiet); // the trigger is added now: 2026-03-06 is not replayed
    expect(report.flocks.find((f) => f.flock === "quiet")).toEqual({
      flock: "quiet",
      from: "2026-03-11T00:00:00.000000",
      to: "2026-03-11T01:00:00.000000",
      due: 0,
      emitted: 0,
      fired: {},
    });
  });

  it("purges expired data events, default and custom expiry, with their jobs", async () => {
    const { storage: s, engine, clock, run } = await setup(create);
    const [keep, custom, old] = await engine.emit("demo", [
      { name: "lapsed_1d", contextUri: null, fireAt: "2026-02-01T00:00:00.000000" },
      { name: "lapsed_1d", contextUri: null, fireAt: "2026-02-01T00:00:00.000000" },
      { name: "lapsed_1d", contextUri: null, fireAt: "2024-02-15T00:00:00.000000" },
    ]);
    await engine.update("demo", "data_event", custom!.id, { expires_at: "2026-03-02" });
    await run();
    expect((await allEvents(s, "lapsed_1d")).map((e) => e.id).sort()).toEqual([keep!.id, custom!.id].sort());
    expect((await s.listJobs({ flock: "demo" })).some((j) => j.dataEventId === old!.id)).toBe(false);
    clock.set("2026-03-02T00:00:00.000Z");
    await run();
    expect((await allEvents(s, "lapsed_1d")).map((e) => e.id)).toEqual([keep!.id]);
    clock.set("2028-02-01T00:00:00.000Z");
    await run();
    expect(await allEvents(s, "lapsed_1d")).toEqual([]);
    // The daily summaries emitted on the way expire two years after their day, like any event.
    expect((await allEvents(s)).every((e) => String(e.data.expires_at) > "2028-02-01")).toBe(true);
  });

  it("logs the events it records as the service's own work (system:scheduler, no actor)", async () => {
    const { storage: s, engine, clock, run } = await setup(create);
    await engine.withAttribution({ actor: "ada", application: "Acme/Sync/2" }).create("demo", "membership", { start_date: "2026-03-01", end_date: "2026-03-10" });
    await run();
    clock.advance(2 * DAY);
    expect((await run()).length).toBeGreaterThan(0);
    const rows = (await s.readChanges("demo", 0, 100)).changes;
    expect(rows[0]).toMatchObject({ type: "membership", actor: "ada", application: "Acme/Sync/2" });
    const scheduled = rows.filter((c) => c.application === "system:scheduler");
    expect(scheduled.length).toBeGreaterThan(0);
    expect(scheduled.every((c) => c.type === "data_event" && c.actor === null)).toBe(true);
  });

  it("purges change feed rows older than changes.retentionDays, keeping the newer ones", async () => {
    const { storage: s, engine, clock } = await setup(create);
    await engine.create("demo", "journal", { n: 1 });
    clock.advance(3 * DAY);
    await engine.create("demo", "journal", { n: 2 });
    const report = await runSchedulerOnce({ storage: s, engine, triggers: [], changesRetentionDays: 2 }, clock.now());
    expect(report.changesPurged).toBe(1);
    const page = await s.readChanges("demo", 0, 10);
    expect(page.purgedThrough).toBe(1);
    expect(page.changes.map((c) => c.id)).toEqual([2]);
    expect((await runSchedulerOnce({ storage: s, engine, triggers: [], changesRetentionDays: RETENTION_DAYS }, clock.now())).changesPurged).toBe(0);
  });

  it("purges the change feed in transactions of at most a chunk, the whole backlog in one run", async () => {
    const { storage: s, clock } = await setup(create);
    const n = CHANGES_PURGE_LIMITS.chunk + 3;
    const at = "2026-02-01T00:00:00.000000";
    await s.apply({
      records: Array.from({ length: n }, (_, i) => ({
        kind: "insert" as const,
        record: { id: `c${i.toString(16).padStart(23, "0")}`, flock: "demo", type: "journal", state: "updated" as const, data: { n: i }, displayValue: "", created: at, lastUpdated: at, version: 1 },
      })),
    });
    const asked: (number | undefined)[] = [];
    const removed: number[] = [];
    const spied: Storage = { ...s, purgeChanges: async (before, limit) => (asked.push(limit), removed.push(await s.purgeChanges(before, limit)), removed.at(-1)!) };
    const report = await runSchedulerOnce({ storage: spied, engine: createRecordEngine({ storage: spied, clock }), triggers: [], changesRetentionDays: 2 }, clock.now());
    expect(asked).toEqual([CHANGES_PURGE_LIMITS.chunk, CHANGES_PURGE_LIMITS.chunk]);
    expect(removed).toEqual([CHANGES_PURGE_LIMITS.chunk, 3]);
    expect(report.changesPurged).toBe(n);
    expect((await s.readChanges("demo", 0, 10)).purgedThrough).toBe(n);
  });
});

describe("scheduledTriggers", () => {
  it("keeps the active date-relative and daily triggers, per flock", () => {
    expect(Object.fromEntries(scheduledTriggers(triggers))).toEqual({
      demo: ["action_required_summary_daily", "expiring_2wk", "lapsed_1d", "new_membership_1wk", "no_payment_membership_1wk"],
      other: ["lapsed_1d"],
    });
  });
});

describe("the scheduler's reads on SQLite", () => {
  it("read form_response.review_by by index (form_score_review_by): no field scanned", async () => {
    const { engine, storage: s } = await setup(adapters[1]![1]);
    const r = await engine.create("demo", "form_response", { review_by: "2026-03-16" });
    const scanned: string[] = [];
    const reader = {
      listRecords: async (...args: Parameters<Storage["listRecords"]>) => {
        const page = await s.listRecords(...args);
        scanned.push(...(page.scanned?.fields ?? []));
        return page;
      },
    };
    const window = { lastRun: new Date("2026-03-01T00:00:00Z"), now: new Date("2026-03-02T00:00:00Z") };
    const events = await computeDueEvents(reader, "demo", ["form_score_review_by_2wk"], window);
    expect(events.map((e) => [e.name, e.contextUri])).toEqual([["form_score_review_by_2wk", uriOf(r)]]);
    expect(scanned).toEqual([]);
  });
});
