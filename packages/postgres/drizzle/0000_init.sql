CREATE TABLE "api_keys" (
	"token_hash" text COLLATE "C" PRIMARY KEY NOT NULL,
	"username" text COLLATE "C" NOT NULL,
	"created" text COLLATE "C" NOT NULL,
	"expires" text COLLATE "C"
);
--> statement-breakpoint
CREATE TABLE "collection_counts" (
	"cid" integer NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "collection_counts_cid_state_pk" PRIMARY KEY("cid","state")
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"cid" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "collections_cid_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"flock" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fields" (
	"fid" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fields_fid_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"cid" integer NOT NULL,
	"name" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"flock" text COLLATE "C" NOT NULL,
	"record_type" text COLLATE "C" NOT NULL,
	"record_id" text COLLATE "C" NOT NULL,
	"field" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flocks" (
	"identifier" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text COLLATE "C" NOT NULL,
	"flock" text COLLATE "C" NOT NULL,
	"data_event_id" text COLLATE "C" NOT NULL,
	"trigger" text COLLATE "C" NOT NULL,
	"action" text COLLATE "C" NOT NULL,
	"delivery_id" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" text COLLATE "C" NOT NULL,
	"first_attempt_at" text COLLATE "C",
	"last_error" text,
	"last_status" integer,
	"body" text,
	"created" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "record_refs" (
	"target" text NOT NULL,
	"rid" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "record_values" (
	"rid" bigint NOT NULL,
	"fid" integer NOT NULL,
	"kind" smallint NOT NULL,
	"text" "bytea" NOT NULL,
	"text_long" "bytea",
	"folded" "bytea" NOT NULL,
	"folded_long" "bytea",
	"num" double precision
);
--> statement-breakpoint
CREATE TABLE "records" (
	"rid" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "records_rid_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"cid" integer NOT NULL,
	"id" text COLLATE "C" NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"data" text NOT NULL,
	"display_value" text NOT NULL,
	"created" text COLLATE "C" NOT NULL,
	"last_updated" text COLLATE "C" NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"username" text COLLATE "C" PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"flocks" text NOT NULL,
	"role" text COLLATE "C" NOT NULL,
	"created" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fields" ADD CONSTRAINT "fields_cid_collections_cid_fk" FOREIGN KEY ("cid") REFERENCES "public"."collections"("cid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_cid_collections_cid_fk" FOREIGN KEY ("cid") REFERENCES "public"."collections"("cid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_username_idx" ON "api_keys" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "collections_flock_type_idx" ON "collections" USING btree ("flock","type");--> statement-breakpoint
CREATE UNIQUE INDEX "fields_cid_name_idx" ON "fields" USING btree ("cid","name");--> statement-breakpoint
CREATE INDEX "files_record_idx" ON "files" USING btree ("flock","record_type","record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_id_idx" ON "outbox" USING btree ("id");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("status","next_attempt_at","id");--> statement-breakpoint
CREATE INDEX "outbox_flock_idx" ON "outbox" USING btree ("flock","seq");--> statement-breakpoint
CREATE INDEX "outbox_event_idx" ON "outbox" USING btree ("data_event_id");--> statement-breakpoint
CREATE INDEX "record_refs_target_idx" ON "record_refs" USING hash ("target");--> statement-breakpoint
CREATE INDEX "record_refs_rid_idx" ON "record_refs" USING btree ("rid");--> statement-breakpoint
CREATE INDEX "record_values_rid_idx" ON "record_values" USING hash ("rid");--> statement-breakpoint
CREATE INDEX "record_values_fid_text_idx" ON "record_values" USING btree ("fid","text","rid");--> statement-breakpoint
CREATE INDEX "record_values_fid_folded_idx" ON "record_values" USING btree ("fid","folded","rid");--> statement-breakpoint
CREATE INDEX "record_values_fid_num_idx" ON "record_values" USING btree ("fid","num","rid") WHERE num IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "records_id_idx" ON "records" USING btree ("id");--> statement-breakpoint
CREATE INDEX "records_cid_idx" ON "records" USING btree ("cid","rid");--> statement-breakpoint
CREATE INDEX "records_cid_state_idx" ON "records" USING btree ("cid","state","rid");--> statement-breakpoint
CREATE INDEX "records_cid_created_idx" ON "records" USING btree ("cid","created");--> statement-breakpoint
CREATE INDEX "records_cid_last_updated_idx" ON "records" USING btree ("cid","last_updated");