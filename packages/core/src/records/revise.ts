/**
 * @module records/revise
 * The pure steps shared by every write: derived values (person names, display value), the
 * next version of a record, field-level comparison, and the one-record change set.
 */
import { displayValueOf } from "../schema/display.js";
import { newPersonData } from "../schema/person.js";
import type { RecordState } from "../model/query.js";
import type { ChangeSet, RecordWrite } from "../model/change-set.js";
import type { StoredRecord } from "../model/record.js";

/**
 * `data` completed and derived for `type`: a person gets every schema field and its
 * generated names; every type gets its display value.
 */
export function derive(type: string, data: Record<string, unknown>): { data: Record<string, unknown>; displayValue: string } {
  const complete = type === "person" ? newPersonData(data) : data;
  return { data: complete, displayValue: displayValueOf(type, complete) };
}

/** The next version of `record`: new data (derived again), state and `lastUpdated`. */
export function revise(
  record: StoredRecord,
  change: { data?: Record<string, unknown>; state?: RecordState; now: string },
): StoredRecord {
  const derived = derive(record.type, change.data ?? record.data);
  return {
    ...record,
    data: derived.data,
    displayValue: derived.displayValue,
    state: change.state ?? record.state,
    lastUpdated: change.now,
    version: record.version + 1,
  };
}

/**
 * The change set that replaces `before` with `after`, checked against `before.version`.
 * `before` rides along so the commit step can see what changed; `changed` names the data
 * fields that did, decided here once (adapters store it in the change feed as given).
 */
export function updateOf(before: StoredRecord, after: StoredRecord): ChangeSet {
  return { records: [updateWrite(before, after)] };
}

/** The one record write of `updateOf`. */
export function updateWrite(before: StoredRecord, after: StoredRecord): RecordWrite {
  return { kind: "update", record: after, expectedVersion: before.version, before, changed: changedFieldNames(before.data, after.data) };
}

/**
 * Names of the fields whose values differ (`sameJson`: key order ignored, absent equals
 * null), in first-seen order over `before` then `after`: the `changed` of an update write.
 */
export function changedFieldNames(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!sameJson(before[field], after[field])) out.push(field);
  }
  return out;
}

/** The fields of `after` whose value differs from `before` (JSON equality), with their new values. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(after)) {
    if (!sameJson(before[field], value)) changed[field] = value;
  }
  for (const field of Object.keys(before)) {
    if (!(field in after)) changed[field] = null;
  }
  return changed;
}

/** Deep equality of JSON values (object key order ignored; undefined equals null). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!sameJson(ao[k], bo[k])) return false;
  return true;
}
