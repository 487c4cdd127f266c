/**
 * @module changes/change-of
 * What the change feed records about one record write: the pure step every adapter runs
 * inside `apply`, so all of them describe a change alike. The fields an update changed are
 * the engine's decision, carried on the write; nothing here compares data.
 */
import type { RecordState } from "../model/query.js";
import type { ChangeRow } from "../model/change.js";
import type { RecordWrite } from "../model/change-set.js";
import type { Attribution } from "../model/attribution.js";

/**
 * A change row before the adapter gives it its id and the change set's attribution (the
 * same for every write of a set).
 */
export type PendingChange = Omit<ChangeRow, "id" | "actor" | "application">;

/**
 * The change a record write makes: every field of an insert, the `changed` fields the
 * engine decided for an update (never compared again here).
 *
 * @example
 * changeOf({ kind: "update", record: ada2, expectedVersion: 1, changed: ["first_name"] }).fields // ["first_name"]
 */
export function changeOf(write: RecordWrite): PendingChange {
  const record = write.record;
  return {
    flock: record.flock,
    type: record.type,
    recordId: record.id,
    state: record.state,
    version: record.version,
    changedAt: record.lastUpdated,
    fields: write.kind === "insert" ? Object.keys(record.data) : [...write.changed],
  };
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
