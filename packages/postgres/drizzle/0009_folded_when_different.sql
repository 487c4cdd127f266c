-- The folded form of a value is kept only where it differs from its text (issue 24 point 2):
-- the column becomes nullable and its index partial, so a value whose folding changes
-- nothing (about half of a person's, most of a membership's) costs one index entry less.
-- The index is dropped first so that the one UPDATE does not maintain it, then rebuilt over
-- the differing forms only (docs/decisions.md, "Folded forms only where they differ").
DROP INDEX "record_values_fid_folded_idx";--> statement-breakpoint
ALTER TABLE "record_values" ALTER COLUMN "folded" DROP NOT NULL;--> statement-breakpoint
UPDATE "record_values" SET "folded" = NULL, "folded_long" = NULL
	WHERE "folded" = "text" AND "folded_long" IS NOT DISTINCT FROM "text_long";--> statement-breakpoint
CREATE INDEX "record_values_fid_folded_idx" ON "record_values" USING btree ("fid","folded","rid") WHERE folded IS NOT NULL;
