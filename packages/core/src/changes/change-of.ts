/**
 * @module changes/change-of
 * What the change feed records about one record write: the pure step every adapter runs
 * inside `apply` (it has the stored data at hand), so all of them describe a change alike.
 */
import type { RecordState } from "../model/query.js";
import type { ChangeRow } from "../model/change.js";
import type { StoredRecord } from "../model/record.js";
import type { Attribution } from "../model/attribution.js";

/**
 * A change row before the adapter gives it its id and the change set's attribution (the
 * same for every write of a set).
 */
export type PendingChange = Omit<ChangeRow, "id" | "actor" | "application">;

/**
 * The change a write of `record` makes; `before` is the stored data it replaces (undefined
 * for an insert, where every field counts as changed).
 *
 * @example
 * changeOf(updated, { first_name: "Ada" }).fields // ["first_name"] when only it moved
 */
export function changeOf(record: StoredRecord, before: Record<string, unknown> | undefined): PendingChange {
  return {
    flock: record.flock,
    type: record.type,
    recordId: record.id,
    state: record.state,
    version: record.version,
    changedAt: record.lastUpdated,
    fields: before === undefined ? Object.keys(record.data) : changedFields(before, record.data),
  };
}

/** Names of the fields whose values differ (absent counts as a value), in first-seen order. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) out.push(field);
  }
  return out;
}

/**
 * The row a pending change is stored as: its id, and who made it (`attribution` of its
 * change set; absent: both null).
 *
 * @example
 * loggedChange(7, pending, { actor: "ada", application: "Acme/Sync/2" }).actor // "ada"
 */
export function loggedChange(id: number, pending: PendingChange, attribution: Attribution | undefined): ChangeRow {
  return { id, ...pending, actor: attribution?.actor ?? null, application: attribution?.application ?? null };
}

/**
 * Groups pending changes by flock in flock order (the order adapters lock the flocks' heads
 * in, so two writers never wait on each other in a cycle), each group in write order.
 */
export function byFlock(changes: readonly PendingChange[]): [string, PendingChange[]][] {
  const groups = new Map<string, PendingChange[]>();
  for (const c of changes) {
    const g = groups.get(c.flock);
    if (g) g.push(c);
    else groups.set(c.flock, [c]);
  }
  return [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** A `changes` table row as both SQL adapters store it (bigint ids may come back as text). */
export interface ChangeTableRow {
  id: number | string;
  type: string;
  record_id: string;
  state: string;
  version: number;
  changed_at: string;
  /** JSON array of field names. */
  fields: string;
  /** Null in rows logged before the columns existed (migration 0007), as when not known. */
  actor: string | null;
  application: string | null;
}

/** The change a stored row of the flock's `changes` table holds. */
export function changeFromRow(flock: string, r: ChangeTableRow): ChangeRow {
  return {
    id: Number(r.id),
    flock,
    type: r.type,
    recordId: r.record_id,
    state: r.state as RecordState,
    version: r.version,
    changedAt: r.changed_at,
    fields: JSON.parse(r.fields) as string[],
    actor: r.actor ?? null,
    application: r.application ?? null,
  };
}
