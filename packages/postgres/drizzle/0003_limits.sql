CREATE TABLE "limits" (
	"key" text COLLATE "C" PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "limits_expires_at_idx" ON "limits" USING btree ("expires_at");