-- The value index's registry (issue 24 point 1): the fields whose index differs from the
-- defaults (core's isIndexedByDefault), per flock (or '*') and type, with the cursor of a
-- back-fill or removal. Fields an older version indexed that the defaults no longer want
-- get a 'dropped' row of source 'migration': their entries are removed in the background,
-- a step of a few hundred records at a time (stepFieldIndexes), and the row then goes.
CREATE TABLE `field_indexes` (
	`flock` text NOT NULL,
	`type` text NOT NULL,
	`field` text NOT NULL,
	`state` text NOT NULL,
	`source` text NOT NULL,
	`cursor` integer,
	`done` integer NOT NULL,
	PRIMARY KEY(`flock`, `type`, `field`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `field_indexes` (`flock`, `type`, `field`, `state`, `source`, `cursor`, `done`)
SELECT c.flock, c.type, f.name, 'dropped', 'migration', NULL, 0
FROM `fields` f JOIN `collections` c ON c.cid = f.cid
WHERE NOT records_indexed_by_default(c.type, f.name)
  AND EXISTS (SELECT 1 FROM `record_values` v WHERE v.fid = f.fid);
