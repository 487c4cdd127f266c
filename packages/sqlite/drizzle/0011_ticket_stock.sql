-- The ticket stock read model (issue 21 point 6): per flock, booking and ticket type, the
-- units its counted tickets take (allocated, reserved), kept by `apply` in each ticket
-- write's transaction (core model/ticket-stock decides the deltas), so the events list
-- reads one row per ticket type instead of every ticket. The row in
-- `ticket_stock_backfill` asks the open that runs this migration to fill the table from the
-- stored tickets, in the same transaction (ticket-stock.ts, backfillTicketStock).
CREATE TABLE `ticket_stock` (
	`flock` text NOT NULL,
	`booking` text NOT NULL,
	`bookable` text NOT NULL,
	`allocated` integer NOT NULL,
	`reserved` integer NOT NULL,
	PRIMARY KEY(`flock`, `booking`, `bookable`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `ticket_stock_backfill` (
	`pending` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `ticket_stock_backfill` (`pending`) VALUES (1);
