-- The change log becomes a rowid table (issue 24, bytes on disk): as WITHOUT ROWID, keyed by
-- (flock, id), a row larger than about 1 KB (a create lists every field: 1.1 KB for a person)
-- did not fit in place and took a 4 KB overflow page of its own, 4.6 KB on disk per created
-- person, more than the person. A rowid table keeps rows up to about 4 KB in place; (flock,
-- id) stays unique through its own index. One copy of the table, run once at open before the
-- file serves (docs/decisions.md, "The change log is a rowid table").
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_changes` (
	`flock` text NOT NULL,
	`id` integer NOT NULL,
	`type` text NOT NULL,
	`record_id` text NOT NULL,
	`state` text NOT NULL,
	`version` integer NOT NULL,
	`changed_at` text NOT NULL,
	`fields` text NOT NULL,
	`actor` text,
	`application` text
);
--> statement-breakpoint
INSERT INTO `__new_changes`("flock", "id", "type", "record_id", "state", "version", "changed_at", "fields", "actor", "application") SELECT "flock", "id", "type", "record_id", "state", "version", "changed_at", "fields", "actor", "application" FROM `changes` ORDER BY "flock", "id";--> statement-breakpoint
DROP TABLE `changes`;--> statement-breakpoint
ALTER TABLE `__new_changes` RENAME TO `changes`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `changes_flock_id_idx` ON `changes` (`flock`,`id`);--> statement-breakpoint
CREATE INDEX `changes_flock_changed_at_idx` ON `changes` (`flock`,`changed_at`);--> statement-breakpoint
CREATE INDEX `changes_record_idx` ON `changes` (`flock`,`type`,`record_id`,`id`);--> statement-breakpoint
CREATE INDEX `changes_type_idx` ON `changes` (`flock`,`type`,`id`);