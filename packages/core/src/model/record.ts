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
  // Let go once parsed or replaced: a record kept after its data was read holds one copy.
  let text: string | undefined = dataText;
  let data: Record<string, unknown> | undefined;
  // True once `data` was read or replaced: the text no longer speaks for it (even if a
  // caller sets it to null or undefined).
  let left = false;
  // Accessors in the literal itself (defineProperty per record cost several µs, and a
  // WeakMap from record to text about 3 µs a record more than this).
  return {
    id: fields.id,
    flock: fields.flock,
    type: fields.type,
    state: fields.state,
    get data(): Record<string, unknown> {
      // Asked by `storedDataText` (never by a caller: `_PEEK` is this module's): the text, while unread.
      if (this === _PEEK) return (left ? undefined : text) as unknown as Record<string, unknown>;
      if (!left) {
        data = JSON.parse(text!) as Record<string, unknown>;
        left = true;
        text = undefined;
      }
      return data!;
    },
    set data(value: Record<string, unknown>) {
      data = value;
      left = true;
      text = undefined;
    },
    displayValue: fields.displayValue,
    created: fields.created,
    lastUpdated: fields.lastUpdated,
    version: fields.version,
  };
}

/**
 * The stored JSON text of `record`'s data when it came from `recordOfDataText` and its
 * `data` has been neither read nor replaced since (a copy never has it); otherwise undefined.
 */
export function storedDataText(record: StoredRecord): string | undefined {
  const read = Object.getOwnPropertyDescriptor(record, "data")?.get;
  return read === undefined ? undefined : (read.call(_PEEK) as unknown as string | undefined);
}

// --- internal ---

/** The receiver that asks a record's `data` accessor for its text instead of its data. */
const _PEEK = Object.freeze({});
