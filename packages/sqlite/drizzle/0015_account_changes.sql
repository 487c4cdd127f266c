-- A count of the changes to the account tables (flocks, users, api_keys), kept by triggers
-- in the writing transaction whatever writes them (this server, another process, the CLI).
-- The account cache empties itself when this count moves, not on every write of a record:
-- a PUT used to empty it, so under writes nearly every request read its key, user and flock
-- again (docs/decisions.md, "The account cache outlives record writes").
CREATE TABLE `account_changes` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);--> statement-breakpoint
INSERT INTO `account_changes` (`id`, `n`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `flocks_insert_counted` AFTER INSERT ON `flocks` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `flocks_update_counted` AFTER UPDATE ON `flocks` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `flocks_delete_counted` AFTER DELETE ON `flocks` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `users_insert_counted` AFTER INSERT ON `users` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `users_update_counted` AFTER UPDATE ON `users` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `users_delete_counted` AFTER DELETE ON `users` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `api_keys_insert_counted` AFTER INSERT ON `api_keys` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `api_keys_update_counted` AFTER UPDATE ON `api_keys` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `api_keys_delete_counted` AFTER DELETE ON `api_keys` BEGIN UPDATE `account_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
