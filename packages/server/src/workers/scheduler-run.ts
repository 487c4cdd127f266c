/**
 * @module workers/scheduler-run
 * One run of the scheduler, as a function of the stored records and `now`: for each flock
 * with active date-relative (or daily) triggers, the events that fell due since that
 * flock's last run are emitted through `engine.emit` (which queues their actions in the
 * same transaction and wakes the outbox worker), then the run time is stored; finally
 * expired data events are purged, and change feed rows older than `changes.retentionDays`.
 *
 * Exactly once: the windows of consecutive runs share their bounds and never overlap, and
 * each event carries core's `dedupeKey(trigger, record, reference date)` as `dedupe_key`,
 * which `emit` skips when stored. So a crash between emitting and storing the run time (or
 * between two flocks) repeats nothing; a renewal that moves `end_date` gives a new key and
 * arms the record's events again.
 *
 * Catch-up: a record created or updated since the last run also has its events due from
 * 00:00 UTC of that write's day emitted now (core's `catchUpStart`): a membership created
 * today with a plain-date `end_date` 14 days ahead gets today's `expiring_2wk`, whose fire
 * time (00:00) had passed before the record existed. The `dedupe_key` keeps it to once.
 */
import {
  dedupeKey,
  dueDailyFireTime,
  dueEvents,
  dueWindows,
  EVENT_CATALOGUE,
  formatTimestamp,
  parseTimestamp,
  parseTriggerName,
  purgeExpiredEvents,
  systemAttribution,
  type DueWindowTimes,
  type EventInput,
  type RecordEngine,
  type RecordReader,
  type Storage,
  type TriggerConfig,
} from "@records-service/core";
import { findDueCandidates, findPaidUris, findWrittenSince } from "./due-candidates.js";

/** The setting holding a flock's last run time: `scheduler.last_run:<flock>`. */
export const LAST_RUN_SETTING_PREFIX = "scheduler.last_run:";
/** Events handed to `engine.emit` per transaction. */
const EMIT_CHUNK_SIZE = 500;
/** Data events purged per chunk, and chunks per run (the rest waits for the next run). */
const PURGE_LIMITS = { chunk: 500, chunksPerRun: 20 } as const;
/**
 * Change-feed rows purged per transaction, and transactions per run (up to a million rows a
 * run, so an hourly schedule keeps up with ~280 writes a second): each transaction reads
 * and deletes one key range of at most a chunk, holding the write lock for milliseconds
 * however long the backlog, where one transaction for the backlog held it for seconds.
 */
export const CHANGES_PURGE_LIMITS = { chunk: 2000, chunksPerRun: 500 } as const;

/** What a run needs. */
export interface SchedulerRunContext {
  storage: Storage;
  engine: RecordEngine;
  /** Every configured trigger; inactive ones and action-time ones are ignored. */
  triggers: readonly TriggerConfig[];
  /** The change feed keeps changes this many days (the settings' `changes.retentionDays`). */
  changesRetentionDays: number;
}

/** What one run did, per flock. */
export interface SchedulerRunReport {
  flocks: { flock: string; from: string | null; to: string; due: number; emitted: number; fired: Record<string, number> }[];
  purged: number;
  /** Change feed rows past the retention, removed. */
  changesPurged: number;
}

/**
 * Runs the scheduler once at `now`. A flock's first run only records `now`: events whose
 * time passed before the scheduler first saw the flock are not sent late. Flocks without
 * scheduled triggers only have their run time moved on, so a trigger added later starts
 * from its addition instead of replaying the months before it.
 *
 * @example
 * await runSchedulerOnce({ storage, engine, triggers: config.triggers }, clock.now());
 */
export async function runSchedulerOnce(given: SchedulerRunContext, now: Date): Promise<SchedulerRunReport> {
  // The events it records are the service's own work (change log: no actor, system:scheduler).
  const ctx = { ...given, engine: given.engine.withAttribution(systemAttribution("scheduler")) };
  const report: SchedulerRunReport = { flocks: [], purged: 0, changesPurged: 0 };
  const scheduled = scheduledTriggers(ctx.triggers);
  for (const { identifier: flock } of await ctx.storage.listFlocks()) {
    report.flocks.push(await _runFlock(ctx, flock, scheduled.get(flock) ?? [], now));
  }
  for (let i = 0; i < PURGE_LIMITS.chunksPerRun; i += 1) {
    const n = await purgeExpiredEvents(ctx.storage, now, { limit: PURGE_LIMITS.chunk });
    report.purged += n;
    if (n < PURGE_LIMITS.chunk) break;
  }
  const retentionMs = ctx.changesRetentionDays * 86_400_000;
  const before = formatTimestamp(new Date(now.getTime() - retentionMs));
  for (let i = 0; i < CHANGES_PURGE_LIMITS.chunksPerRun; i += 1) {
    const n = await ctx.storage.purgeChanges(before, CHANGES_PURGE_LIMITS.chunk);
    report.changesPurged += n;
    if (n < CHANGES_PURGE_LIMITS.chunk) break;
  }
  return report;
}

/**
 * The active date-relative and daily trigger names per flock, flocks in name order.
 *
 * @example
 * scheduledTriggers([{ flock: "demo", trigger: "expiring_2wk", active: true, ... }]) // Map { "demo" => ["expiring_2wk"] }
 */
export function scheduledTriggers(triggers: readonly TriggerConfig[]): Map<string, string[]> {
  const byFlock = new Map<string, Set<string>>();
  for (const t of triggers) {
    if (!t.active) continue;
    const timing = parseTriggerName(t.trigger, EVENT_CATALOGUE).entry.timing;
    if (timing === "action") continue;
    const names = byFlock.get(t.flock) ?? new Set<string>();
    names.add(t.trigger);
    byFlock.set(t.flock, names);
  }
  return new Map([...byFlock.keys()].sort().map((flock) => [flock, [...byFlock.get(flock)!].sort()]));
}

/**
 * The events of `names` that fall due in the window (lastRun, now] in one flock, ready for
 * `engine.emit`: candidates read by index (and the records written in the window, for the
 * catch-up), then core's `dueEvents` (exact bounds,
 * conditions, the paid check of `no_payment_*`), plus the daily events of the window.
 *
 * @example
 * await computeDueEvents(engine.read, "demo", ["expiring_2wk"], { lastRun, now }) // [{ name: "expiring_2wk", contextUri, fireAt, dedupeKey }]
 */
export async function computeDueEvents(reader: Pick<RecordReader, "listRecords">, flock: string, names: readonly string[], window: DueWindowTimes): Promise<EventInput[]> {
  if (window.now.getTime() <= window.lastRun.getTime()) return [];
  const windows = dueWindows(window, { triggerNames: names });
  const written = await findWrittenSince(
    reader,
    flock,
    windows.flatMap((w) => w.resourceTypes),
    formatTimestamp(window.lastRun),
    formatTimestamp(window.now),
  );
  const candidates = [...new Map([...(await findDueCandidates(reader, flock, windows)), ...written].map((r) => [r.id, r])).values()];
  const unpaidTypes = _unpaidTypes(names);
  const paidUris = await findPaidUris(
    reader,
    candidates.filter((r) => unpaidTypes.has(r.type)),
  );
  const events: EventInput[] = dueEvents(candidates, window, { triggerNames: names, paidUris }).map((e) => ({
    name: e.name,
    contextUri: e.contextUri,
    fireAt: formatTimestamp(e.fireAt),
    dedupeKey: e.key,
  }));
  const fireDaily = dueDailyFireTime(window);
  if (fireDaily) {
    for (const name of names.filter((n) => parseTriggerName(n, EVENT_CATALOGUE).entry.timing === "daily")) {
      events.push({ name, contextUri: null, fireAt: formatTimestamp(fireDaily), dedupeKey: dedupeKey(name, `/${flock}/`, fireDaily) });
    }
  }
  return events;
}

// --- internal ---

async function _runFlock(ctx: SchedulerRunContext, flock: string, names: string[], now: Date): Promise<SchedulerRunReport["flocks"][number]> {
  const setting = LAST_RUN_SETTING_PREFIX + flock;
  const nowText = formatTimestamp(now);
  const stored = await ctx.storage.getSetting(setting);
  const lastRun = stored === undefined ? undefined : parseTimestamp(stored);
  if (!lastRun || lastRun.getTime() >= now.getTime()) {
    // First run (or a clock that went back): start counting from here.
    if (!lastRun) await ctx.storage.putSetting(setting, nowText);
    return { flock, from: stored ?? null, to: stored ?? nowText, due: 0, emitted: 0, fired: {} };
  }
  const events = names.length === 0 ? [] : await computeDueEvents(ctx.engine.read, flock, names, { lastRun, now });
  let emitted = 0;
  const fired: Record<string, number> = {};
  for (let i = 0; i < events.length; i += EMIT_CHUNK_SIZE) {
    const stored = await ctx.engine.emit(flock, events.slice(i, i + EMIT_CHUNK_SIZE));
    emitted += stored.length;
    for (const e of stored) fired[String(e.data["name"])] = (fired[String(e.data["name"])] ?? 0) + 1;
  }
  await ctx.storage.putSetting(setting, nowText);
  return { flock, from: stored!, to: nowText, due: events.length, emitted, fired };
}

/** The resource types whose candidates need the paid check (triggers with the `unpaid` condition). */
function _unpaidTypes(names: readonly string[]): Set<string> {
  const types = new Set<string>();
  for (const name of names) {
    const { entry, variationEntry } = parseTriggerName(name, EVENT_CATALOGUE);
    const conditions = [...entry.conditions, ...(variationEntry?.conditions ?? [])];
    if (conditions.some((c) => c.kind === "unpaid")) for (const t of entry.resourceTypes) types.add(t);
  }
  return types;
}
