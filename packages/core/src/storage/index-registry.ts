/**
 * @module storage/index-registry
 * The value index's registry (issue 24): which data fields of each collection the adapter
 * keeps in its value index, beside the defaults (`model/field-index.ts`). Kept in the
 * database, so every process writes and reads by the same rows; the rules that read them
 * (`writesIndex`, `readsIndex`) are core's, once. An adapter without a value index (the
 * memory reference scans every filter) keeps the rows all the same and finishes every
 * back-fill at once.
 */
import type { FieldIndexRow, FieldIndexSource, FieldIndexWish } from "../model/field-index.js";

/** The registry of indexed fields. */
export interface IndexRegistry {
  /**
   * The registry rows of `flock` (and the every-flock rows, `EVERY_FLOCK`), of one type when
   * given, ordered by type, field and flock.
   */
  listFieldIndexes(flock: string, type?: string): Promise<FieldIndexRow[]>;
  /**
   * Asks for `field`'s index (`index`: a `building` row that the back-fill completes, or
   * the ready row as it is) or for none (`drop`: a `dropped` row whose leftover entries
   * the back-fill removes). A row of the same wish is left as it is, except that a source
   * other than `demand` takes over a `demand` row. `flock` may be `EVERY_FLOCK`. Resolves
   * with the row now stored.
   */
  setFieldIndex(flock: string, type: string, field: string, wish: FieldIndexWish, source: FieldIndexSource): Promise<FieldIndexRow>;
  /**
   * Removes the row of `field` in `flock` (`EVERY_FLOCK` too), so the defaults rule the
   * field again; a removed `building` row stops its back-fill (writes stop keeping entries
   * the defaults do not want, and leftovers are never read: `readsIndex`). Except for a
   * field the defaults index (`isIndexedByDefault`) whose row is not `ready`: its entries are
   * not all there, and the defaults would have reads trust them at once. Such a row is built
   * instead: a `dropped` one becomes a `building` row of source `default` (from the first
   * record), a `building` one takes source `default`; either goes once built (the defaults
   * then rule over a complete index). True when the flock had a row of its own.
   */
  removeFieldIndex(flock: string, type: string, field: string): Promise<boolean>;
  /**
   * Moves every unfinished row forward by up to `limit` records in all: a `building` row's
   * entries are written for the next records (a row whose records are all done becomes
   * `ready`, or is deleted when its source is `default`: the defaults then rule), a
   * `dropped` row's leftover entries are removed (a finished `migration` row is then deleted). Safe when several processes call it at once (each step is one
   * transaction over the row, from where the last one stopped). Answers how many records
   * it walked: fewer than `limit` means nothing is left to do.
   */
  stepFieldIndexes(limit: number): Promise<number>;
}
