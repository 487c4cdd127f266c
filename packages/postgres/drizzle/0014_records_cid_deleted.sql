-- As SQLite's 0016: `records_cid_idx` (cid, rid) and `records_cid_state_idx` (cid, state, rid)
-- held every record of a collection in the same order, so each write of a record went into
-- both. Only the deleted records keep an index by state; a live list walks `records_cid_idx`
-- past the few deleted rows (docs/decisions.md, "Pages per create").
DROP INDEX "records_cid_state_idx";--> statement-breakpoint
CREATE INDEX "records_cid_deleted_idx" ON "records" USING btree ("cid","rid") WHERE state = 'deleted';
