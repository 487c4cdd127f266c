/**
 * @module gateway/events/attendance
 * `PUT …/booking/{uid}/attendance` (spec v2-gateway 1.6): checks `person_uri` and `status`
 * before reading anything, then writes `attendance` on each counted ticket of the booking
 * whose attendee is that person, each through the engine's update (audit history, the
 * change feed, data events and triggers see it). No such ticket: 404, nothing written.
 */
import { badRequest, notFound, parseRecordUri, type StoredRecord } from "@records-service/core";
import type { GatewayParams } from "../params.js";
import { canonicalUri, uriOf } from "../read-all.js";
import type { BookingData } from "./packet.js";
import { ticketCounts } from "./stock.js";
import { ATTENDANCE_STATUSES, attendeeOf, session, type AttendanceStatus, type Named } from "./tickets.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** A checked attendance request. */
export interface AttendanceInput {
  personUri: string;
  status: AttendanceStatus;
}

/**
 * `person_uri` (a person URI of `flock`) and `status` (one of `ATTENDANCE_STATUSES`) from
 * the request's parameters; a missing or bad one is a 400 naming it.
 */
export function readAttendanceInput(params: Pick<GatewayParams, "get">, flock: string): AttendanceInput {
  const raw = params.get("person_uri")?.trim();
  if (!raw) throw badRequest("missing person_uri", "person_uri is required: the URI of the attendee (/{flock}/person/{id}/)");
  const uri = parseRecordUri(canonicalUri(raw));
  if (!uri || uri.type !== "person" || uri.flock !== flock) {
    throw badRequest("invalid person_uri", `person_uri must be a person URI of flock ${JSON.stringify(flock)} (/${flock}/person/{id}/), not ${JSON.stringify(raw.slice(0, 100))}`);
  }
  const status = params.get("status")?.trim();
  if (!status) throw badRequest("missing status", `status is required: one of ${ATTENDANCE_STATUSES.join(", ")}`);
  if (!(ATTENDANCE_STATUSES as readonly string[]).includes(status)) {
    throw badRequest("invalid status", `status must be one of ${ATTENDANCE_STATUSES.join(", ")}, not ${JSON.stringify(status.slice(0, 40))}`);
  }
  return { personUri: canonicalUri(raw), status: status as AttendanceStatus };
}

/**
 * Writes the attendance and returns the vendor's `UpdatedEventAttendance` answer.
 * `writer` is the engine acting for the caller.
 */
export async function updateAttendance(writer: RouteEngine, data: BookingData, input: AttendanceInput, named: Named): Promise<Record<string, unknown>> {
  const { booking } = data;
  const mine = data.tickets.filter((t) => ticketCounts(t) && attendeeOf(t) === input.personUri);
  if (mine.length === 0) {
    throw notFound("no ticket for that person", `${input.personUri} holds no ticket of booking ${uriOf(booking)}; create the ticket first to record a walk-in`);
  }
  const updated: StoredRecord[] = [];
  for (const ticket of mine) {
    updated.push((await writer.update(booking.flock, "ticket", ticket.id, { attendance: input.status })).record);
  }
  const expand = (uri: string | null) => (uri ? { display_value: named.get(uri)?.displayValue ?? uri, ref: uri } : null);
  return {
    booking_ref: uriOf(booking),
    person_ref: input.personUri,
    status: input.status,
    attendance: updated.map((t) => {
      const s = session(t, named);
      return {
        uri: uriOf(t),
        attendance: {
          attendee_email: s.attendee_email,
          attendee_name: s.attendee_name,
          booking_ref: { display_value: booking.displayValue, ref: uriOf(booking) },
          guest: s.guest,
          legacy_uid: t.data.legacy_uid ?? null,
          person_ref: expand(s.person_ref as string | null),
          status: s.status,
          ticket_ref: uriOf(t),
        },
      };
    }),
  };
}
