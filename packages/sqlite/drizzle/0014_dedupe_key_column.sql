-- A data event's dedupe key moves to a column of its own (core's `dedupeKeyText`: the JSON
-- text of a data event's string `dedupe_key`, null for every other record). The unique index
-- over `json_extract(data, '$.dedupe_key')` parsed the JSON of every record on every insert
-- and update, and held a custom type's `dedupe_key` field unique as well, which the reference
-- adapter does not. The old index held a superset unique, so the new one finds no duplicate.
DROP INDEX `records_dedupe_key_idx`;--> statement-breakpoint
ALTER TABLE `records` ADD `dedupe_key` text;--> statement-breakpoint
UPDATE `records` SET `dedupe_key` = records_dedupe_key('data_event', `data`)
  WHERE `cid` IN (SELECT `cid` FROM `collections` WHERE `type` = 'data_event') AND instr(`data`, '"dedupe_key"') > 0;--> statement-breakpoint
CREATE UNIQUE INDEX `records_dedupe_key_idx` ON `records` (`cid`,`dedupe_key`) WHERE dedupe_key IS NOT NULL;
