-- As SQLite's 0017: a record's changes by (flock, record id, id), no longer by type first
-- (record ids are unique across the store; the history's statements still compare the
-- type), so a write's records, ids of the same moment, share the index's last page.
DROP INDEX "changes_record_idx";--> statement-breakpoint
CREATE INDEX "changes_record_idx" ON "changes" USING btree ("flock","record_id","id");
