/**
 * @module storage/search-index
 * The full-text index of people and organisations behind `search/` (SQLite FTS5,
 * PostgreSQL full text, the memory adapter's scan of the same documents).
 */
import type { StoredRecord } from "../model/record.js";

/** Search over the records' search documents. */
export interface SearchIndex {
  /**
   * The live records of `types` (of `SEARCH_TYPES`) in `flock` whose search document
   * (`searchDocument`) has each of `terms` (`searchTerms`: folded words) as one of its
   * words, or with `prefix` as the start of one of its words; in insertion order, at most
   * `limit` (the engine ranks them). Answered from an index kept in the same transaction as
   * every write, never by reading the records.
   */
  searchRecords(flock: string, types: readonly string[], terms: readonly string[], limit: number, prefix: boolean): Promise<StoredRecord[]>;
}
