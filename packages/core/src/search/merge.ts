/**
 * @module search/merge
 * How often and how much of a queued search index is merged (`Storage.mergeSearchIndex`):
 * the bound on how long the index may lag an acknowledged write while a search worker runs
 * (a search itself merges what is queued before answering, so it never lags).
 */

/** The search worker merges the queue this often (ms); with the merge's own time, well under a second. */
export const SEARCH_MERGE_INTERVAL_MS = 250;
/** Queued entries merged per transaction by a search (the worker merges smaller slices: server workers/search-merge). */
export const SEARCH_MERGE_BATCH = 1000;
