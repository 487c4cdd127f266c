-- A mark of the changes to the account tables (flocks, users, api_keys), set by triggers in
-- the writing transaction whatever writes them (this server, another process, the CLI): a
-- new random number each time, not a count, so that another database restored over this
-- one (records-service restore, into a file a server has open) cannot bring back a number
-- the cache has seen (two counts from 0 would meet). The account cache empties itself when
-- this mark moves, not on every write of a record:
-- a PUT used to empty it, so under writes nearly every request read its key, user and flock
-- again (docs/decisions.md, "The account cache outlives record writes").
CREATE TABLE `account_changes` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);--> statement-breakpoint
INSERT INTO `account_changes` (`id`, `n`) VALUES (1, abs(random() % 9007199254740991));--> statement-breakpoint
CREATE TRIGGER `flocks_insert_counted` AFTER INSERT ON `flocks` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `flocks_update_counted` AFTER UPDATE ON `flocks` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `flocks_delete_counted` AFTER DELETE ON `flocks` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `users_insert_counted` AFTER INSERT ON `users` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `users_update_counted` AFTER UPDATE ON `users` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `users_delete_counted` AFTER DELETE ON `users` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `api_keys_insert_counted` AFTER INSERT ON `api_keys` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `api_keys_update_counted` AFTER UPDATE ON `api_keys` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `api_keys_delete_counted` AFTER DELETE ON `api_keys` BEGIN UPDATE `account_changes` SET `n` = abs(random() % 9007199254740991) WHERE `id` = 1; END;
