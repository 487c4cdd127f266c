/**
 * @module audit/entries
 * The entries of an audit answer and how each is made: from a logged write (the change
 * log keeps when, the version, who, through which application and the fields it changed),
 * from a data event, or, for what the log no longer holds (purged, or written before it
 * existed), from the record itself with what it keeps: its creation and latest write.
 */
import { recordUri } from "../schema/references.js";
import type { HistoryChange } from "../model/change.js";
import type { StoredRecord } from "../model/record.js";

/** What an entry records: a write (as its state change says), or a data event about the record. */
export const AUDIT_ACTIONS = ["created", "updated", "deleted", "restored", "event"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One history entry. */
export interface AuditEntry {
  /** Timestamp (spec format): the write's time; for an event, when it fired. */
  when: string;
  /** The write (as its state change says), or `event` (a data event about the record). */
  action: AuditAction;
  /** The record the entry is about. */
  uri: string;
  /** For `event`: the trigger name (`contact_created`) and the data event's URI. */
  event: string | null;
  event_uri: string | null;
  /** The record's version after the write, when known. */
  version: number | null;
  /** Who made the write (a member account reads `"{flock} {email}"`); null for the service's own work or when not kept. */
  user: string | null;
  /** The APPLICATION label it came through, a `system:` marker for the service's own work, or null (unattributed, or not kept). */
  application: string | null;
  /** The data fields the write changed (every field for a creation); null when not kept. */
  changed_fields: string[] | null;
}

/** Largest `limit` of an audit answer. */
export const MAX_AUDIT_LIMIT = 1000;

/**
 * What a logged write did, as its state change says: the first write of a record at
 * version 1 created it; leaving it deleted deleted it; leaving the deleted state restored
 * it; anything else updated it. Whether an earlier write left the record deleted is known
 * only while that write is kept; otherwise a write leaving it deleted counts as `deleted`.
 *
 * @example
 * actionOf({ ...change, state: "updated", previousState: "deleted" }) // "restored"
 */
export function actionOf(change: Pick<HistoryChange, "version" | "state" | "previousState">): Exclude<AuditAction, "event"> {
  if (change.version === 1 && change.previousState === null) return "created";
  if (change.state === "deleted") return change.previousState === "deleted" ? "updated" : "deleted";
  return change.previousState === "deleted" ? "restored" : "updated";
}

/** The entry of a logged write. */
export function changeEntry(change: HistoryChange): AuditEntry {
  return {
    when: change.changedAt,
    action: actionOf(change),
    uri: recordUri(change.flock, change.type, change.recordId),
    event: null,
    event_uri: null,
    version: change.version,
    user: change.actor,
    application: change.application,
    changed_fields: change.fields,
  };
}

/**
 * The entry of a data event: about the record it names (`context_ref`), when it fired;
 * with the write that recorded it when that write is known (`recorded`).
 */
export function eventEntry(event: StoredRecord, recorded?: HistoryChange): AuditEntry {
  const about = typeof event.data.context_ref === "string" ? event.data.context_ref : recordUri(event.flock, event.type, event.id);
  return {
    when: typeof event.data.fire_at === "string" ? event.data.fire_at : event.created,
    action: "event",
    uri: about,
    event: typeof event.data.name === "string" ? event.data.name : null,
    event_uri: recordUri(event.flock, event.type, event.id),
    version: null,
    user: recorded?.actor ?? null,
    application: recorded?.application ?? null,
    changed_fields: null,
  };
}

/** The creation of `record` as the record itself tells it (the log no longer holds it). */
export function keptCreationEntry(record: StoredRecord): AuditEntry {
  const untouched = record.version === 1 && record.created === record.lastUpdated;
  return _unlogged("created", record.created, record, untouched ? 1 : null);
}

/**
 * The latest write of `record` as the record itself tells it, when it is not its creation
 * (undefined otherwise).
 */
export function keptLatestEntry(record: StoredRecord): AuditEntry | undefined {
  if (record.version <= 1 && record.lastUpdated === record.created) return undefined;
  return _unlogged(record.state === "deleted" ? "deleted" : "updated", record.lastUpdated, record, record.version);
}

/**
 * Sorts entries newest first, in place; entries at the same time keep their order.
 *
 * @example
 * newestFirst([older, newer]) // [newer, older]
 */
export function newestFirst(entries: AuditEntry[]): AuditEntry[] {
  return entries.sort((a, b) => (a.when < b.when ? 1 : a.when > b.when ? -1 : 0));
}

// --- internal ---

function _unlogged(action: AuditAction, when: string, record: StoredRecord, version: number | null): AuditEntry {
  return {
    when,
    action,
    uri: recordUri(record.flock, record.type, record.id),
    event: null,
    event_uri: null,
    version,
    user: null,
    application: null,
    changed_fields: null,
  };
}
