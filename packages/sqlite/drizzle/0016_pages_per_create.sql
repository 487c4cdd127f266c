-- A create wrote each record into both `records_cid_idx` (cid) and `records_cid_state_idx`
-- (cid, state), two indexes holding every record of a collection in the same rid order:
-- two pages of each collection a write touches (a person create: its record and its data
-- event, four pages). Only the deleted records need an index of their own (a deleted list,
-- and the deleted matches a live count takes away); a live list walks `records_cid_idx` and
-- skips the deleted rows (docs/decisions.md, "Pages per create").
DROP INDEX `records_cid_state_idx`;--> statement-breakpoint
CREATE INDEX `records_cid_deleted_idx` ON `records` (`cid`) WHERE state = 'deleted';
