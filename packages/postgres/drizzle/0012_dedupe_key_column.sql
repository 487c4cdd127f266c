-- A data event's dedupe key moves to a column of its own (core's `dedupeKeyText`: the JSON
-- text of a data event's string `dedupe_key`, null for every other record). The unique index
-- over `(data::jsonb) ->> 'dedupe_key'` failed every insert of data holding both the text
-- "dedupe_key" and a `\u0000` or lone-surrogate escape (a 500), and held a custom type's
-- `dedupe_key` field unique as well, which the reference adapter does not. Every stored row
-- holding "dedupe_key" was cast to jsonb by that index, so the cast below cannot fail; the
-- text of a jsonb string is its JSON text as JSON.stringify writes it. The old index held a
-- superset unique, so the new one finds no duplicate.
DROP INDEX "records_dedupe_key_idx";--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "dedupe_key" text COLLATE "C";--> statement-breakpoint
UPDATE "records" SET "dedupe_key" = ("data"::jsonb -> 'dedupe_key')::text
  WHERE "cid" IN (SELECT "cid" FROM "collections" WHERE "type" = 'data_event') AND strpos("data", '"dedupe_key"') > 0
    AND jsonb_typeof("data"::jsonb -> 'dedupe_key') = 'string';--> statement-breakpoint
CREATE UNIQUE INDEX "records_dedupe_key_idx" ON "records" USING btree ("cid","dedupe_key") WHERE dedupe_key IS NOT NULL;
