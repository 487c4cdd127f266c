-- The search index (issue 14): one row per live person or organisation. `doc` is built in
-- JS from core's searchDocument (already folded words, cast straight to tsvector so that no
-- text search configuration changes them); the GIN index answers `doc @@ 'term'[:*] & ...`.
-- Kept by `apply` in the same transaction as the record; rows of records written before
-- this migration are added on open (search.ts, backfillSearch). The flock and type are
-- checked on the joined record.
CREATE TABLE IF NOT EXISTS "record_search" (
	"rid" bigint PRIMARY KEY NOT NULL,
	"doc" tsvector NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "record_search_doc_idx" ON "record_search" USING gin ("doc");
