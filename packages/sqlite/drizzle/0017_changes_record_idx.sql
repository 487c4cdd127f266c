-- A record's changes by (flock, record id, id), no longer by type first: record ids are
-- unique across the store (the history's statements still compare the type), and a write's
-- records (a person and its data event, ids of the same moment) now add their entries to
-- the index's same last page instead of one page per type (docs/decisions.md, "Pages per create").
DROP INDEX `changes_record_idx`;--> statement-breakpoint
CREATE INDEX `changes_record_idx` ON `changes` (`flock`,`record_id`,`id`);
