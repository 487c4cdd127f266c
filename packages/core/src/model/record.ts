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

/**
 * A stored record whose `data` is parsed from `dataText` (its stored JSON text) only when
 * first read. Until then, and while nothing has replaced it, `storedDataText` gives the text,
 * so an answer can be written from it without parsing and serializing it again (the list,
 * `listElementText`). `data` is an own, enumerable property like any other: spreading or
 * comparing the record reads (parses) it, and the copy holds the parsed object, not the text.
 *
 * @example
 * const record = recordOfDataText({ id, flock, type, state, displayValue, created, lastUpdated, version }, row.data);
 */
export function recordOfDataText(fields: Omit<StoredRecord, "data">, dataText: string): StoredRecord {
  let data: Record<string, unknown> | undefined;
  // Accessors in the literal itself (defineProperty on each record cost several µs): the
  // members in StoredRecord's order, `data` in its place.
  const record: StoredRecord = {
    id: fields.id,
    flock: fields.flock,
    type: fields.type,
    state: fields.state,
    get data(): Record<string, unknown> {
      if (data === undefined) {
        data = JSON.parse(dataText) as Record<string, unknown>;
        // Once handed out, the object may be changed: the text no longer speaks for it.
        _dataTexts.delete(record);
      }
      return data;
    },
    set data(value: Record<string, unknown>) {
      data = value;
      _dataTexts.delete(record);
    },
    displayValue: fields.displayValue,
    created: fields.created,
    lastUpdated: fields.lastUpdated,
    version: fields.version,
  };
  _dataTexts.set(record, dataText);
  return record;
}

/**
 * The stored JSON text of `record`'s data when it came from `recordOfDataText` and its
 * `data` has been neither read nor replaced since; otherwise undefined.
 */
export function storedDataText(record: StoredRecord): string | undefined {
  return _dataTexts.get(record);
}

// --- internal ---

const _dataTexts = new WeakMap<StoredRecord, string>();
