-- A filtered change feed (issue 20) reads each type's changes after a position by this index,
-- so a page costs its own rows, not the flock's whole log of other types.
CREATE INDEX "changes_type_idx" ON "changes" USING btree ("flock","type","id");