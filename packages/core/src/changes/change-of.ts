/**
 * @module changes/change-of
 * What the change feed records about one record write: the pure step every adapter runs
 * inside `apply` (it has the stored data at hand), so all of them describe a change alike.
 */
import type { RecordState } from "../query/types.js";
import type { ChangeRow, StoredRecord } from "../storage/types.js";

/** A change row before the adapter gives it its id. */
export type PendingChange = Omit<ChangeRow, "id">;

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
  };
}
