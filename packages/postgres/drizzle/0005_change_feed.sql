CREATE TABLE "change_heads" (
	"flock" text COLLATE "C" PRIMARY KEY NOT NULL,
	"last_id" bigint NOT NULL,
	"purged_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"flock" text COLLATE "C" NOT NULL,
	"id" bigint NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"record_id" text COLLATE "C" NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"version" integer NOT NULL,
	"changed_at" text COLLATE "C" NOT NULL,
	"fields" text NOT NULL,
	CONSTRAINT "changes_flock_id_pk" PRIMARY KEY("flock","id")
);
--> statement-breakpoint
CREATE INDEX "changes_flock_changed_at_idx" ON "changes" USING btree ("flock","changed_at");