/**
 * @module events/due
 * Date-relative events, as a pure function of records and two instants: which
 * (trigger, record, reference date) fall due in the scheduler window (lastRun, now].
 *
 * A record is due for a trigger when its reference date's stored text lies in the
 * window's text range `(afterText, upToText]` (the window shifted back by the trigger's
 * offset). Comparing the stored text rather than a parsed instant is what an adapter's
 * index does (`end_date > ? AND end_date <= ?`), so the in-memory check and the index
 * query agree exactly, and consecutive windows, which share their bounds, can never both
 * match one record. For the contract's formats (`YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS.ffffff`,
 * fraction optional) this order is the order of the instants; a date means 00:00 UTC.
 *
 * Catch-up: a record created or updated inside the window (`lastUpdated` in (lastRun, now])
 * also yields its events whose fire time lies from 00:00 UTC of that write's day up to
 * `now`, though before the window. So a membership created today with a plain-date
 * `end_date` whose event was due at 00:00 today fires now, once (its `dedupeKey`), while an
 * old record edited today replays nothing from before today.
 */
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";
import { formatTimestamp, parseTimestamp } from "../time.js";
import { EVENT_CATALOGUE } from "./catalogue.js";
import { isFlagSet } from "./flags.js";
import { parseTriggerName } from "./trigger-names.js";
import type { Catalogue, EventCondition, EventEntry, VariationEntry } from "./types.js";

const DAY_MS = 86_400_000;

/** The scheduler window: events whose fire time is after `lastRun` and not after `now`. */
export interface DueWindowTimes {
  lastRun: Date;
  now: Date;
}

/** One date-relative event that falls due. */
export interface DueEvent {
  /** The trigger name (`expiring_2wk`). */
  name: string;
  event: string;
  variation: string | null;
  record: StoredRecord;
  /** The record's URI: the data event's `context_ref`. */
  contextUri: string;
  /** The reference date as stored (`end_date`'s value, or the record's `created`). */
  referenceDate: string;
  /** When it was meant to fire: the reference date plus the trigger's offset. */
  fireAt: Date;
  /** `dedupeKey(name, contextUri, referenceDate)`. */
  key: string;
}

/** Options of `dueEvents` and `dueWindows`. */
export interface DueOptions {
  catalogue?: Catalogue;
  /**
   * The trigger names to compute (e.g. the flock's active triggers); names that are not
   * date-relative are ignored. Default: every date-relative trigger of the catalogue.
   */
  triggerNames?: Iterable<string>;
  /**
   * URIs of the records that some payment references (its `*_ref` fields). Required as
   * soon as a trigger with the `unpaid` condition is computed, so that "no payment"
   * events never go out for lack of the facts.
   */
  paidUris?: ReadonlySet<string>;
}

/** The range of reference dates that fall due for one trigger in one window. */
export interface DueWindow {
  /** The field the trigger counts from (`created` = the record's creation time). */
  field: string;
  /** Exclusive lower bound of the reference instant. */
  after: Date;
  /** Inclusive upper bound of the reference instant. */
  upTo: Date;
  /** `formatTimestamp(after)`: compare stored text with `>`. */
  afterText: string;
  /** `formatTimestamp(upTo)`: compare stored text with `<=`. */
  upToText: string;
}

/** A trigger's window, with what an adapter needs to query it by index. */
export interface TriggerWindow extends DueWindow {
  name: string;
  resourceTypes: readonly string[];
}

/**
 * The reference dates that fall due in (lastRun, now] for a trigger that fires
 * `fireOffsetDays` after its reference date: the window shifted back by the offset.
 *
 * @example
 * // expiring_2wk fires 14 days before end_date: find end_date in (lastRun + 14d, now + 14d]
 * dueWindow("end_date", -14, lastRun, now)
 */
export function dueWindow(field: string, fireOffsetDays: number, lastRun: Date, now: Date): DueWindow {
  const shift = fireOffsetDays * DAY_MS;
  const after = new Date(lastRun.getTime() - shift);
  const upTo = new Date(now.getTime() - shift);
  return { field, after, upTo, afterText: formatTimestamp(after), upToText: formatTimestamp(upTo) };
}

/**
 * One window per date-relative trigger to compute, so an adapter can find the candidate
 * records by index (`type IN resourceTypes AND field > afterText AND field <= upToText`)
 * and hand them to `dueEvents` for the conditions.
 */
export function dueWindows(window: DueWindowTimes, options: DueOptions = {}): TriggerWindow[] {
  return _relativeTriggers(options).map((t) => ({
    name: t.name,
    resourceTypes: t.entry.resourceTypes,
    ...dueWindow(t.entry.dateField!, t.variation.fireOffsetDays!, window.lastRun, window.now),
  }));
}

/**
 * The date-relative events that fall due in (lastRun, now] among `records` (plus the
 * catch-up of records written in the window, see `catchUpStart`), each once
 * (a record given twice yields its events once), ordered by fire time, then name, then URI.
 * Deleted records, records of other types, unset or unreadable dates and unmet conditions
 * yield nothing.
 *
 * @example
 * dueEvents(memberships, { lastRun, now }, { triggerNames: ["expiring_2wk"], paidUris: new Set() })
 */
export function dueEvents(records: Iterable<StoredRecord>, window: DueWindowTimes, options: DueOptions = {}): DueEvent[] {
  if (window.now.getTime() <= window.lastRun.getTime()) return [];
  const triggers = _relativeTriggers(options).map((t) => ({
    ...t,
    conditions: [...t.entry.conditions, ...t.variation.conditions],
    range: dueWindow(t.entry.dateField!, t.variation.fireOffsetDays!, window.lastRun, window.now),
  }));
  const needsPaid = triggers.some((t) => t.conditions.some((c) => c.kind === "unpaid"));
  if (needsPaid && !options.paidUris) {
    throw new Error("dueEvents: paidUris is required to compute no_payment_* triggers");
  }
  const out = new Map<string, DueEvent>();
  for (const record of records) {
    if (record.state === "deleted") continue;
    const contextUri = recordUri(record.flock, record.type, record.id);
    const catchUpFrom = catchUpStart(record, window);
    for (const t of triggers) {
      if (!t.entry.resourceTypes.includes(record.type)) continue;
      const ref = _referenceText(record, t.entry.dateField!);
      if (ref === undefined || !(ref <= t.range.upToText)) continue;
      const refTime = parseTimestamp(ref);
      if (!refTime) continue;
      const fireTime = refTime.getTime() + t.variation.fireOffsetDays! * DAY_MS;
      const inWindow = ref > t.range.afterText;
      if (!inWindow && !(catchUpFrom !== null && fireTime >= catchUpFrom)) continue;
      if (!t.conditions.every((c) => _holds(c, record, contextUri, options.paidUris))) continue;
      const key = dedupeKey(t.name, contextUri, ref);
      out.set(key, {
        name: t.name,
        event: t.entry.event,
        variation: t.variation.name,
        record,
        contextUri,
        referenceDate: ref,
        fireAt: new Date(fireTime),
        key,
      });
    }
  }
  return [...out.values()].sort(
    (a, b) => a.fireAt.getTime() - b.fireAt.getTime() || _cmp(a.name, b.name) || _cmp(a.contextUri, b.contextUri),
  );
}

/**
 * The earliest fire time (ms) a record's catch-up reaches back to: 00:00 UTC of the day of
 * its last write when that write lies in the window (lastRun, now]; else null (no catch-up).
 * Always after `lastRun` minus one day.
 *
 * @example
 * catchUpStart({ lastUpdated: "2026-03-02T10:00:00.000000", ... }, { lastRun: 2026-03-02T09:59Z, now: 2026-03-02T10:00Z })
 * // Date.parse("2026-03-02T00:00:00Z")
 */
export function catchUpStart(record: StoredRecord, window: DueWindowTimes): number | null {
  const written = parseTimestamp(record.lastUpdated)?.getTime();
  if (written === undefined || written <= window.lastRun.getTime() || written > window.now.getTime()) return null;
  return Math.floor(written / DAY_MS) * DAY_MS;
}

/**
 * The identity of one date-relative event: each (trigger, record, reference date) is
 * emitted once; a record whose reference date changes (a renewal moving `end_date`) gets
 * a new key, so its triggers are armed again. The date is normalised, so `2026-03-01` and
 * `2026-03-01T00:00:00.000000` are the same key.
 *
 * @example
 * dedupeKey("expiring_2wk", "/demo/member/0123456789abcdef01234567/", "2026-03-01")
 * // "expiring_2wk /demo/member/0123456789abcdef01234567/ 2026-03-01T00:00:00.000000"
 */
export function dedupeKey(name: string, recordUri: string, referenceDate: string | Date): string {
  const instant = typeof referenceDate === "string" ? parseTimestamp(referenceDate) : referenceDate;
  const date = instant ? formatTimestamp(instant) : String(referenceDate);
  return `${name} ${recordUri} ${date}`;
}

/**
 * The fire time of a `daily` event (00:00 UTC) that falls in (lastRun, now], or null.
 * Only the latest day counts: a summary after downtime describes today, not each missed day.
 */
export function dueDailyFireTime(window: DueWindowTimes): Date | null {
  const midnight = Math.floor(window.now.getTime() / DAY_MS) * DAY_MS;
  return midnight > window.lastRun.getTime() ? new Date(midnight) : null;
}

// --- internal ---

interface _Relative {
  name: string;
  entry: EventEntry;
  variation: VariationEntry;
}

function _relativeTriggers(options: DueOptions): _Relative[] {
  const catalogue = options.catalogue ?? EVENT_CATALOGUE;
  const all: _Relative[] = [];
  if (options.triggerNames === undefined) {
    for (const [name, { entry, variation }] of catalogue.triggers) all.push({ name, entry, variation });
  } else {
    for (const name of new Set(options.triggerNames)) {
      const parsed = parseTriggerName(name, catalogue);
      if (parsed.variationEntry) all.push({ name, entry: parsed.entry, variation: parsed.variationEntry });
    }
  }
  return all.filter((t) => t.entry.timing === "relative" && t.entry.dateField !== null && t.variation.fireOffsetDays !== null);
}

function _referenceText(record: StoredRecord, field: string): string | undefined {
  if (field === "created") return record.created;
  const v = record.data[field];
  return typeof v === "string" && v !== "" ? v : undefined;
}

function _holds(c: EventCondition, record: StoredRecord, uri: string, paid: ReadonlySet<string> | undefined): boolean {
  switch (c.kind) {
    case "flag":
      return isFlagSet(record.data[c.field]) === c.is;
    case "one_of":
      return _oneOf(record.data[c.field], c.values);
    case "not_one_of":
      return !_oneOf(record.data[c.field], c.values);
    case "unpaid":
      return !paid!.has(uri);
  }
}

/** Open schemas: a client may store a flag as a boolean, a string or a number. */

function _oneOf(v: unknown, values: readonly string[]): boolean {
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") return false;
  const text = String(v).toLowerCase();
  return values.some((x) => x.toLowerCase() === text);
}

function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
