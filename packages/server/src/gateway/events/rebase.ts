/**
 * @module gateway/events/rebase
 * `PUT …/booking/{uid}/rebase/tickets` (spec v2-gateway section 6): after an event moves,
 * its tickets' `start_date` (which the engine's `ticketed_event_*` data events read) is set
 * to the booking's `start_date` where it differs, each through the engine's update. A
 * booking without a start date cannot rebase: 409, nothing written.
 */
import { conflict } from "@records-service/core";
import { uriOf } from "../read-all.js";
import { dateOf, type BookingData } from "./packet.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** The answer of `rebase/tickets`. */
export interface RebaseTickets {
  ticket_changes: { uri: string; old_date: unknown; new_date: string }[];
  unchanged_tickets: number;
}

/**
 * Rebases the booking's live tickets through `writer` (the engine acting for the caller).
 *
 * @example
 * await rebaseTickets(actingEngine(c, engine), data) // { ticket_changes: [...], unchanged_tickets: 3 }
 */
export async function rebaseTickets(writer: RouteEngine, data: BookingData): Promise<RebaseTickets> {
  const target = dateOf(data.booking.data.start_date);
  if (target === null) throw conflict("no start date", `booking ${uriOf(data.booking)} has no start_date to rebase its tickets on`);
  const changes: RebaseTickets["ticket_changes"] = [];
  let unchanged = 0;
  for (const t of data.tickets) {
    const old = t.data.start_date;
    if (typeof old === "string" && old === target) {
      unchanged++;
      continue;
    }
    await writer.update(t.flock, "ticket", t.id, { start_date: target });
    changes.push({ uri: uriOf(t), old_date: old ?? null, new_date: target });
  }
  return { ticket_changes: changes, unchanged_tickets: unchanged };
}
