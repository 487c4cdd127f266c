/**
 * @module model/change
 * One committed record change, as the change log keeps it and the change feed serves it.
 */
import type { RecordState } from "./query.js";

/**
 * One committed record change, as the change feed serves it. Adapters write one per record
 * write of a change set, in the same transaction (see `changeOf`).
 */
export interface ChangeRow {
  /**
   * Per flock: 1, 2, 3, ... in commit order, with no gap and no repeat, whatever the number
   * of processes (adapters assign ids under a per-flock lock held until commit).
   */
  id: number;
  flock: string;
  type: string;
  recordId: string;
  state: RecordState;
  version: number;
  /** The record's `lastUpdated` as written (engine clock). */
  changedAt: string;
  /** Data fields that changed (every field of a new record; none for a state change alone). */
  fields: string[];
  /** Who asked for the write (see `Attribution.actor`); null: the service itself, or not known. */
  actor: string | null;
  /** Through which application (see `Attribution.application`); null: unattributed, or not known. */
  application: string | null;
}

/** One change of a history page. */
export interface HistoryChange extends ChangeRow {
  /**
   * The state of the same record's previous kept change (so a reader can tell a restore
   * from an update); null when none is kept: the record's first logged write, or the
   * earlier ones were purged.
   */
  previousState: RecordState | null;
}
