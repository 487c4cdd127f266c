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
   * `limit` (the engine ranks them). Answered from the index, never by reading every record,
   * and seeing every acknowledged write: an adapter that queues index updates
   * (`mergeSearchIndex`) merges what is queued before it answers.
   */
  searchRecords(flock: string, types: readonly string[], terms: readonly string[], limit: number, prefix: boolean): Promise<StoredRecord[]>;
  /**
   * Moves up to `limit` queued index updates (records written since the last merge) into the
   * index, in one transaction, and answers how many it moved: fewer than `limit` means the
   * queue is empty. Safe when several processes call it at once (each entry is merged once,
   * from the record as it is then). An adapter whose index is kept in the write's own
   * transaction has nothing queued and answers 0. The search worker calls it every
   * `SEARCH_MERGE_INTERVAL_MS`.
   */
  mergeSearchIndex(limit: number): Promise<number>;
}
