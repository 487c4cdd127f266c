/**
 * @module model/record
 * A record as stored and the key that names it inside a flock.
 */
import type { RecordState } from "./query.js";

/** One record as stored. `data` holds the resource's schema fields. */
export interface StoredRecord {
  id: string;
  flock: string;
  type: string;
  state: RecordState;
  data: Record<string, unknown>;
  /** Computed by the engine on every write (see schema/display). */
  displayValue: string;
  created: string;
  lastUpdated: string;
  /** Starts at 1; every update increments it; `apply` checks it. */
  version: number;
}

/** A record reference: the flock is implied by the caller. */
export interface RecordKey {
  type: string;
  id: string;
}
