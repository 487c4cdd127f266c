ALTER TABLE `outbox` ADD `claim_token` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `claimed_until` text;--> statement-breakpoint
CREATE INDEX `outbox_claim_idx` ON `outbox` (`claim_token`) WHERE claim_token IS NOT NULL;--> statement-breakpoint
UPDATE `records` SET `data` = json_remove(`data`, '$.dedupe_key') WHERE json_extract(`data`, '$.dedupe_key') IS NOT NULL AND `rid` NOT IN (SELECT min(`rid`) FROM `records` WHERE json_extract(`data`, '$.dedupe_key') IS NOT NULL GROUP BY `cid`, json_extract(`data`, '$.dedupe_key'));--> statement-breakpoint
CREATE UNIQUE INDEX `records_dedupe_key_idx` ON `records` (`cid`,json_extract(data, '$.dedupe_key')) WHERE json_extract(data, '$.dedupe_key') IS NOT NULL;
