CREATE TABLE `api_keys` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`created` text NOT NULL,
	`expires` text
);
--> statement-breakpoint
CREATE INDEX `api_keys_username_idx` ON `api_keys` (`username`);--> statement-breakpoint
CREATE TABLE `collection_counts` (
	`cid` integer NOT NULL,
	`state` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`cid`, `state`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `collections` (
	`cid` integer PRIMARY KEY NOT NULL,
	`flock` text NOT NULL,
	`type` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collections_flock_type_idx` ON `collections` (`flock`,`type`);--> statement-breakpoint
CREATE TABLE `fields` (
	`fid` integer PRIMARY KEY NOT NULL,
	`cid` integer NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`cid`) REFERENCES `collections`(`cid`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fields_cid_name_idx` ON `fields` (`cid`,`name`);--> statement-breakpoint
CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`flock` text NOT NULL,
	`record_type` text NOT NULL,
	`record_id` text NOT NULL,
	`field` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`created` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `files_record_idx` ON `files` (`flock`,`record_type`,`record_id`);--> statement-breakpoint
CREATE TABLE `flocks` (
	`identifier` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `record_refs` (
	`target` text NOT NULL,
	`rid` integer NOT NULL,
	PRIMARY KEY(`target`, `rid`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `record_refs_rid_idx` ON `record_refs` (`rid`);--> statement-breakpoint
CREATE TABLE `record_values` (
	`rid` integer NOT NULL,
	`fid` integer NOT NULL,
	`kind` integer NOT NULL,
	`text` text NOT NULL,
	`folded` text NOT NULL,
	`num` real,
	PRIMARY KEY(`rid`, `fid`, `kind`, `text`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `record_values_fid_text_idx` ON `record_values` (`fid`,`text`);--> statement-breakpoint
CREATE INDEX `record_values_fid_folded_idx` ON `record_values` (`fid`,`folded`);--> statement-breakpoint
CREATE INDEX `record_values_fid_num_idx` ON `record_values` (`fid`,`num`) WHERE num IS NOT NULL;--> statement-breakpoint
CREATE TABLE `records` (
	`rid` integer PRIMARY KEY NOT NULL,
	`cid` integer NOT NULL,
	`id` text NOT NULL,
	`state` text NOT NULL,
	`data` text NOT NULL,
	`display_value` text NOT NULL,
	`created` text NOT NULL,
	`last_updated` text NOT NULL,
	`version` integer NOT NULL,
	FOREIGN KEY (`cid`) REFERENCES `collections`(`cid`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `records_id_idx` ON `records` (`id`);--> statement-breakpoint
CREATE INDEX `records_cid_idx` ON `records` (`cid`);--> statement-breakpoint
CREATE INDEX `records_cid_state_idx` ON `records` (`cid`,`state`);--> statement-breakpoint
CREATE INDEX `records_cid_created_idx` ON `records` (`cid`,`created`);--> statement-breakpoint
CREATE INDEX `records_cid_last_updated_idx` ON `records` (`cid`,`last_updated`);--> statement-breakpoint
CREATE TABLE `settings` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`username` text PRIMARY KEY NOT NULL,
	`password_hash` text NOT NULL,
	`flocks` text NOT NULL,
	`role` text NOT NULL,
	`created` text NOT NULL
);
