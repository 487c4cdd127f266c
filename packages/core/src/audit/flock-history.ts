/**
 * @module audit/flock-history
 * A flock's history, newest first: every write its change log keeps (data events among
 * them, shown as `event` entries), then, for the time before the oldest kept change (the
 * log purged after `changes.retentionDays`, or not yet there), the flock's data events,
 * the engine's lasting record of creations and state changes. One list, paged by `skip`
 * and `limit` across both parts.
 */
import { DATA_EVENT_TYPE } from "../events/data-event.js";
import type { Filter } from "../model/query.js";
import { requireFlockAndType } from "../records/guards.js";
import type { EngineContext } from "../records/types.js";
import type { HistoryChange } from "../model/change.js";
import type { StoredRecord } from "../model/record.js";
import type { ChangeHistoryPage } from "../storage/change-log.js";
import { changeEntry, eventEntry, newestFirst, type AuditEntry } from "./entries.js";

/** What the flock's history selects and pages. */
export interface FlockHistoryOptions {
  limit: number;
  skip: number;
  /** Timestamp or date: entries at or after it (a write's time; an older event's `fire_at`). */
  from?: string;
  /** Timestamp or date: entries before it. */
  to?: string;
  /** Only writes of records of this type (before the kept log: events about such records). */
  resource?: string;
}

/**
 * The flock's history, newest first. Throws `not_found` for an unknown flock or resource type.
 *
 * @example
 * await flockHistory(ctx, "demo", { limit: 100, skip: 0, resource: "person" }) // { count, results: [{ action: "created", user: "ada", ... }] }
 */
export async function flockHistory(ctx: EngineContext, flock: string, opts: FlockHistoryOptions): Promise<{ count: number; results: AuditEntry[] }> {
  await requireFlockAndType(ctx, flock, DATA_EVENT_TYPE);
  if (opts.resource !== undefined) await requireFlockAndType(ctx, flock, opts.resource);
  const logged = await _loggedPart(ctx, flock, opts);
  const results = logged ? await _entries(ctx, flock, logged.page.changes) : [];
  // The data events recorded before the oldest kept change (all of them when none is kept).
  const older = _olderEventFilters(flock, opts, logged?.start);
  const olderTotal = await _countEvents(ctx, flock, older);
  const skipped = Math.max(0, opts.skip - (logged?.page.total ?? 0));
  const room = opts.limit - results.length;
  if (room > 0 && skipped < olderTotal) {
    const end = olderTotal - skipped;
    const start = Math.max(0, end - room);
    results.push(...newestFirst((await _eventRange(ctx, flock, older, start, end - start)).map((e) => eventEntry(e))));
  }
  return { count: (logged?.page.total ?? 0) + olderTotal, results };
}

// --- internal ---

/** The kept part: the page of changes and the time of the oldest kept change (undefined: nothing is kept). */
async function _loggedPart(
  ctx: EngineContext,
  flock: string,
  opts: FlockHistoryOptions,
): Promise<{ page: ChangeHistoryPage; start: string } | undefined> {
  const oldest = (await ctx.storage.readChanges(flock, 0, 1)).changes[0];
  if (!oldest) return undefined;
  const page = await ctx.storage.readChangeHistory(flock, {
    skip: opts.skip,
    limit: opts.limit,
    ...(opts.resource !== undefined ? { type: opts.resource } : {}),
    ...(opts.from ? { from: opts.from } : {}),
    ...(opts.to ? { to: opts.to } : {}),
  });
  return { page, start: oldest.changedAt };
}

/** The entries of logged changes, in their order: a data event's recording is the event itself. */
async function _entries(ctx: EngineContext, flock: string, changes: readonly HistoryChange[]): Promise<AuditEntry[]> {
  const recordings = changes.filter(_isRecording);
  const events = new Map<string, StoredRecord>();
  if (recordings.length > 0) {
    for (const e of await ctx.storage.getRecords(flock, recordings.map((c) => ({ type: DATA_EVENT_TYPE, id: c.recordId })))) events.set(e.id, e);
  }
  return changes.map((c) => {
    const event = _isRecording(c) ? events.get(c.recordId) : undefined;
    // A data event purged since (expired) is still told as the write it was.
    return event ? eventEntry(event, c) : changeEntry(c);
  });
}

function _isRecording(c: HistoryChange): boolean {
  return c.type === DATA_EVENT_TYPE && c.version === 1 && c.previousState === null;
}

/** Today's filters on data events, plus "recorded before `start`". */
function _olderEventFilters(flock: string, opts: FlockHistoryOptions, start: string | undefined): Filter[] {
  const filters: Filter[] = [];
  if (start !== undefined) filters.push({ field: "created", meta: true, op: "lt", values: [{ text: start }] });
  if (opts.from) filters.push({ field: "fire_at", meta: false, op: "gte", values: [{ text: opts.from }] });
  if (opts.to) filters.push({ field: "fire_at", meta: false, op: "lt", values: [{ text: opts.to }] });
  if (opts.resource) filters.push({ field: "context_ref", meta: false, op: "startswith", values: [{ text: `/${flock}/${opts.resource}/` }] });
  return filters;
}

async function _countEvents(ctx: EngineContext, flock: string, filters: Filter[]): Promise<number> {
  return (await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { filters, mode: "AND", states: ["updated"], page: 1, pageSize: 1 })).total;
}

/** Data events `start .. start+count` (creation order) matching `filters`: the two pages of size `count` around them. */
async function _eventRange(ctx: EngineContext, flock: string, filters: Filter[], start: number, count: number): Promise<StoredRecord[]> {
  const q = { filters, mode: "AND" as const, states: ["updated" as const] };
  const page = Math.floor(start / count) + 1;
  const a = await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { ...q, page, pageSize: count });
  let rows = a.records.slice(start - (page - 1) * count);
  if (rows.length < count) rows = rows.concat((await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { ...q, page: page + 1, pageSize: count })).records);
  return rows.slice(0, count);
}
