CREATE TABLE `outbox` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`flock` text NOT NULL,
	`data_event_id` text NOT NULL,
	`trigger` text NOT NULL,
	`action` text NOT NULL,
	`delivery_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text NOT NULL,
	`first_attempt_at` text,
	`last_error` text,
	`last_status` integer,
	`body` text,
	`created` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_id_idx` ON `outbox` (`id`);--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_flock_idx` ON `outbox` (`flock`);