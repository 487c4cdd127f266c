/**
 * @module audit/record-history
 * A record's history, newest first: every write the change log keeps (when, version, who,
 * which application, the fields changed) and the data events about the record. What the
 * log no longer holds (purged after `changes.retentionDays`, or written before the log
 * existed) is told from the record itself: its creation and its latest write, without
 * who or what changed. A Storage without `readChangeHistory` answers only those.
 */
import { DATA_EVENT_TYPE } from "../events/data-event.js";
import type { Filter } from "../model/query.js";
import type { EngineContext } from "../records/types.js";
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";
import type { ChangeHistoryPage } from "../storage/change-log.js";
import { changeEntry, eventEntry, keptCreationEntry, keptLatestEntry, MAX_AUDIT_LIMIT, newestFirst, type AuditEntry } from "./entries.js";

/** A record's history answer. */
export interface RecordHistory {
  uri: string;
  /** Entries at or after `since`, before `limit` cuts them. */
  count: number;
  results: AuditEntry[];
  /** Records that reference this one (data events aside). */
  related_uris: string[];
}

/** Related records listed with a record's history. */
const MAX_RELATED = 100;

/**
 * The history of one record, newest first, at most `limit` entries at or after `since`
 * (timestamp), with the URIs of records that reference it. At equal times an event comes
 * before the write that caused it.
 *
 * @example
 * await recordHistory(ctx, record, { limit: 50 }) // { results: [{ action: "updated", user: "ada", changed_fields: ["last_name"], ... }, ...] }
 */
export async function recordHistory(ctx: EngineContext, record: StoredRecord, opts: { limit: number; since?: string }): Promise<RecordHistory> {
  const uri = recordUri(record.flock, record.type, record.id);
  const since = opts.since;
  const log = await recordChanges(ctx, record, { limit: Math.min(opts.limit, MAX_AUDIT_LIMIT), ...(since !== undefined ? { from: since } : {}) });
  const events = (await eventsAbout(ctx, record.flock, uri)).reverse().map((e) => eventEntry(e));
  const kept: AuditEntry[] = [];
  // The latest write is logged when the newest logged change has the record's version (if
  // that change is older than `since`, so is the latest write, and the entry is left out).
  // A newer logged version (a write between reading the record and its log) is logged too.
  if ((log.changes[0]?.version ?? 0) < record.version) {
    const latest = keptLatestEntry(record);
    if (latest) kept.push(latest);
  }
  if (log.oldest?.version !== 1) kept.push(keptCreationEntry(record));
  const inRange = (e: AuditEntry) => since === undefined || e.when >= since;
  const shown = [...events.filter(inRange), ...log.changes.map(changeEntry), ...kept.filter(inRange)];
  // No data event is listed as referencing (they are the events above), so a record with
  // many never crowds its related records out.
  const related = await ctx.storage.listReferencing(record.flock, uri, MAX_RELATED);
  return {
    uri,
    count: log.total + shown.length - log.changes.length,
    results: newestFirst(shown).slice(0, opts.limit),
    related_uris: related.map((r) => recordUri(r.flock, r.type, r.id)),
  };
}

/**
 * The kept changes of `record`, newest first (at most `limit`, from `from` on), their
 * total, and the record's oldest kept change.
 */
export function recordChanges(
  ctx: EngineContext,
  record: StoredRecord,
  opts: { limit: number; from?: string },
): Promise<ChangeHistoryPage> {
  return ctx.storage.readChangeHistory(record.flock, { type: record.type, recordId: record.id, skip: 0, ...opts });
}

/** The live data events about the record `uri` (at most `MAX_AUDIT_LIMIT`), oldest first. */
export async function eventsAbout(ctx: EngineContext, flock: string, uri: string): Promise<StoredRecord[]> {
  const filters: Filter[] = [{ field: "context_ref", meta: false, op: "eq", values: [{ text: uri }] }];
  const out: StoredRecord[] = [];
  for (let page = 1; ; page++) {
    const { records, total } = await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, { filters, mode: "AND", states: ["updated"], page, pageSize: 1000 });
    out.push(...records);
    if (page * 1000 >= total || out.length >= MAX_AUDIT_LIMIT) return out;
  }
}
