/**
 * @module audit/history
 * Change history from what the engine keeps: a record's creation, its latest write (with
 * its version) and deletion, and the data events recorded about it (every event the engine
 * emits for a write: `contact_created`, `cancelling_membership`, ...), newest first; and
 * the flock's data events as its change log. Field-level diffs and the user and
 * application behind each write are not kept by the engine, so entries carry them as null.
 */
import { DATA_EVENT_TYPE } from "../events/data-event.js";
import { requireFlockAndType } from "../records/guards.js";
import type { EngineContext } from "../records/types.js";
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../storage/types.js";
import type { Filter } from "../query/types.js";

/** One history entry. */
export interface AuditEntry {
  /** Timestamp (spec format). */
  when: string;
  /** `created`, `updated`, `deleted`, or `event` (a data event about the record). */
  action: "created" | "updated" | "deleted" | "event";
  /** The record the entry is about. */
  uri: string;
  /** For `event`: the trigger name (`contact_created`) and the data event's URI. */
  event: string | null;
  event_uri: string | null;
  /** The record's version after the write, when known. */
  version: number | null;
  /** Not kept by the engine (see module doc): always null. */
  user: null;
  application: null;
  changed_fields: null;
}

/** Largest `limit` of an audit answer. */
export const MAX_AUDIT_LIMIT = 1000;
/** Related records listed with a record's history. */
const MAX_RELATED = 100;

/**
 * The history of one record, newest first, at most `limit` entries at or after `since`
 * (timestamp), with the URIs of records that reference it.
 *
 * @example
 * await recordHistory(ctx, record, { limit: 50 }) // { results: [{ action: "event", event: "contact_created", ... }, ...] }
 */
export async function recordHistory(
  ctx: EngineContext,
  record: StoredRecord,
  opts: { limit: number; since?: string },
): Promise<{ uri: string; count: number; results: AuditEntry[]; related_uris: string[] }> {
  const uri = recordUri(record.flock, record.type, record.id);
  // Newest first, and at equal times the later step first (the sort keeps this order).
  const entries: AuditEntry[] = [];
  if (record.version > 1 || record.lastUpdated !== record.created) {
    entries.push(_entry(record.state === "deleted" ? "deleted" : "updated", record.lastUpdated, uri, record.version));
  }
  for (const e of (await eventsAbout(ctx, record.flock, uri)).reverse()) entries.push(_eventEntry(e));
  entries.push(_entry("created", record.created, uri, record.version === 1 && record.created === record.lastUpdated ? 1 : null));
  const related = await ctx.storage.listReferencing(record.flock, uri, MAX_RELATED * 2);
  const results = _newestFirst(entries).filter((e) => opts.since === undefined || e.when >= opts.since);
  return {
    uri,
    count: results.length,
    results: results.slice(0, opts.limit),
    related_uris: related
      .filter((r) => r.type !== DATA_EVENT_TYPE)
      .slice(0, MAX_RELATED)
      .map((r) => recordUri(r.flock, r.type, r.id)),
  };
}

/**
 * The flock's change log: its data events (each the engine's record of a write or a dated
 * event), newest first, filtered by time (`from` inclusive, `to` exclusive) and by the
 * resource type of the record they are about; `skip` and `limit` page it.
 */
export async function flockHistory(
  ctx: EngineContext,
  flock: string,
  opts: { limit: number; skip: number; from?: string; to?: string; resource?: string },
): Promise<{ count: number; results: AuditEntry[] }> {
  await requireFlockAndType(ctx, flock, DATA_EVENT_TYPE);
  if (opts.resource !== undefined) await requireFlockAndType(ctx, flock, opts.resource);
  const filters: Filter[] = [];
  if (opts.from) filters.push({ field: "fire_at", meta: false, op: "gte", values: [{ text: opts.from }] });
  if (opts.to) filters.push({ field: "fire_at", meta: false, op: "lt", values: [{ text: opts.to }] });
  if (opts.resource) filters.push({ field: "context_ref", meta: false, op: "startswith", values: [{ text: `/${flock}/${opts.resource}/` }] });
  // Newest first: read the matching page counted from the end of the creation order.
  const first = await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { filters, mode: "AND", states: ["updated"], page: 1, pageSize: 1 });
  const end = first.total - opts.skip;
  const start = Math.max(0, end - opts.limit);
  const take = end - start;
  if (take <= 0) return { count: first.total, results: [] };
  const page = await _range(ctx, flock, filters, start, take);
  return { count: first.total, results: _newestFirst(page.map(_eventEntry)) };
}

/** The live data events about the record `uri` (at most `MAX_AUDIT_LIMIT`), oldest first. */
export function eventsAbout(ctx: EngineContext, flock: string, uri: string): Promise<StoredRecord[]> {
  return _dataEvents(ctx, flock, [{ field: "context_ref", meta: false, op: "eq", values: [{ text: uri }] }]);
}

// --- internal ---

function _entry(action: AuditEntry["action"], when: string, uri: string, version: number | null): AuditEntry {
  return { when, action, uri, event: null, event_uri: null, version, user: null, application: null, changed_fields: null };
}

function _eventEntry(e: StoredRecord): AuditEntry {
  const about = typeof e.data.context_ref === "string" ? e.data.context_ref : recordUri(e.flock, e.type, e.id);
  const when = typeof e.data.fire_at === "string" ? e.data.fire_at : e.created;
  return { ..._entry("event", when, about, null), event: typeof e.data.name === "string" ? e.data.name : null, event_uri: recordUri(e.flock, e.type, e.id) };
}

function _newestFirst(entries: AuditEntry[]): AuditEntry[] {
  return entries.sort((a, b) => (a.when < b.when ? 1 : a.when > b.when ? -1 : 0));
}

/** Every live data event of the flock matching `filters` (a record's events are few). */
async function _dataEvents(ctx: EngineContext, flock: string, filters: Filter[]): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (let page = 1; ; page++) {
    const { records, total } = await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { filters, mode: "AND", states: ["updated"], page, pageSize: 1000 });
    out.push(...records);
    if (page * 1000 >= total || out.length >= MAX_AUDIT_LIMIT) return out;
  }
}

/** Records `start .. start+count` (creation order) of the data events matching `filters`: the two pages of size `count` around them. */
async function _range(ctx: EngineContext, flock: string, filters: Filter[], start: number, count: number): Promise<StoredRecord[]> {
  const q = { filters, mode: "AND" as const, states: ["updated" as const] };
  const page = Math.floor(start / count) + 1;
  const a = await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { ...q, page, pageSize: count });
  let rows = a.records.slice(start - (page - 1) * count);
  if (rows.length < count) rows = rows.concat((await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { ...q, page: page + 1, pageSize: count })).records);
  return rows.slice(0, count);
}

/**
 * The provenance of a record: when it was created and last written, the event that recorded
 * its creation (`*_created`), and where it came from (`source`, `legacy_uid`, `external_ids`).
 */
export function provenance(record: StoredRecord, createdEvent: StoredRecord | undefined): Record<string, unknown> {
  return {
    uri: recordUri(record.flock, record.type, record.id),
    created: record.created,
    last_updated: record.lastUpdated,
    version: record.version,
    state: record.state,
    created_event: createdEvent ? recordUri(createdEvent.flock, createdEvent.type, createdEvent.id) : null,
    source: record.data.source ?? null,
    legacy_uid: record.data.legacy_uid ?? null,
    external_ids: Array.isArray(record.data.external_ids) ? record.data.external_ids : [],
    created_by: null,
    application: null,
  };
}
