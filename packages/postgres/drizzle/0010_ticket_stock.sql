-- The ticket stock read model (issue 21 point 6): per flock, booking and ticket type, the
-- units its counted tickets take (allocated, reserved), kept by `apply` in each ticket
-- write's transaction (core model/ticket-stock decides the deltas), so the events list
-- reads one row per ticket type instead of every ticket. The row in
-- `ticket_stock_backfill` asks `migrateDatabase` to fill the table from the stored tickets
-- right after, under the migration lock (ticket-stock.ts, backfillTicketStock).
CREATE TABLE "ticket_stock" (
	"flock" text COLLATE "C" NOT NULL,
	"booking" text COLLATE "C" NOT NULL,
	"bookable" text COLLATE "C" NOT NULL,
	"allocated" bigint NOT NULL,
	"reserved" bigint NOT NULL,
	CONSTRAINT "ticket_stock_flock_booking_bookable_pk" PRIMARY KEY("flock","booking","bookable")
);
--> statement-breakpoint
CREATE TABLE "ticket_stock_backfill" (
	"pending" integer NOT NULL
);
--> statement-breakpoint
INSERT INTO "ticket_stock_backfill" ("pending") VALUES (1);
