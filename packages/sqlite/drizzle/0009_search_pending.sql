-- The search index's queue (issue 24): `apply` adds the rid of each person or organisation it
-- writes here, in the write's transaction, and `mergeSearchIndex` moves the queued records
-- into `record_search` in batches (search.ts): a create dirties one page of this table
-- instead of a new FTS5 segment. Searches merge what is queued before answering.
CREATE TABLE `search_pending` (
	`rid` integer PRIMARY KEY NOT NULL
);
