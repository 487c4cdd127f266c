-- Audit (issue 14, point 5): who made each logged write and through which application
-- (null in rows logged before this migration: not known), and an index to read one
-- record's changes (its history; each change's previous one).
ALTER TABLE `changes` ADD `actor` text;--> statement-breakpoint
ALTER TABLE `changes` ADD `application` text;--> statement-breakpoint
CREATE INDEX `changes_record_idx` ON `changes` (`flock`,`type`,`record_id`,`id`);