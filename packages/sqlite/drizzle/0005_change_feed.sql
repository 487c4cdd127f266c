-- The change feed (issue 13): per flock a head (last id, purge mark) and one row per record
-- write, written by `apply` in the write's own transaction.
-- IF NOT EXISTS: a file whose migration record was lost (or a test replaying older versions) migrates again cleanly.
CREATE TABLE IF NOT EXISTS `change_heads` (
	`flock` text PRIMARY KEY NOT NULL,
	`last_id` integer NOT NULL,
	`purged_through` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `changes` (
	`flock` text NOT NULL,
	`id` integer NOT NULL,
	`type` text NOT NULL,
	`record_id` text NOT NULL,
	`state` text NOT NULL,
	`version` integer NOT NULL,
	`changed_at` text NOT NULL,
	`fields` text NOT NULL,
	PRIMARY KEY(`flock`, `id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `changes_flock_changed_at_idx` ON `changes` (`flock`,`changed_at`);