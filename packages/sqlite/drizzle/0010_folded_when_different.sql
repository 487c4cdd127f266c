-- The folded form of a value is kept only where it differs from its text (issue 24 point 2):
-- the column becomes nullable and its index partial, so a value whose folding changes
-- nothing (about half of a person's, most of a membership's) costs one index entry less.
-- SQLite cannot drop NOT NULL in place: the table is rebuilt (as drizzle-kit writes it, with
-- WITHOUT ROWID kept by hand), nulling the equal forms in the same single pass. Its cost is
-- one copy of the table and its three indexes, run once at open before the file serves
-- (docs/decisions.md, "Folded forms only where they differ").
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_record_values` (
	`rid` integer NOT NULL,
	`fid` integer NOT NULL,
	`kind` integer NOT NULL,
	`text` text NOT NULL,
	`folded` text,
	`num` real,
	PRIMARY KEY(`rid`, `fid`, `kind`, `text`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_record_values`("rid", "fid", "kind", "text", "folded", "num") SELECT "rid", "fid", "kind", "text", nullif("folded", "text"), "num" FROM `record_values`;--> statement-breakpoint
DROP TABLE `record_values`;--> statement-breakpoint
ALTER TABLE `__new_record_values` RENAME TO `record_values`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `record_values_fid_text_idx` ON `record_values` (`fid`,`text`);--> statement-breakpoint
CREATE INDEX `record_values_fid_folded_idx` ON `record_values` (`fid`,`folded`) WHERE folded IS NOT NULL;--> statement-breakpoint
CREATE INDEX `record_values_fid_num_idx` ON `record_values` (`fid`,`num`) WHERE num IS NOT NULL;
