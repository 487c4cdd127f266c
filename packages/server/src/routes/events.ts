/**
 * @module routes/events
 * The hosted service's events gateway under `/events/v2/{flock}` (spec v2-gateway section
 * 1), over the generic records: an event is a `booking`, its ticket types `bookable`s,
 * each place a `ticket`. Core keys of the flock only; member tokens 403.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | `/:flock`, `/:flock/bookings` | events from 14 days back to 90 ahead, paged |
 * | GET | `/:flock/bookings/:state` | `all`, `future`, `past`, `running`, `current`, `draft`, paged |
 * | GET | `/:flock/booking/:uid` | the event packet |
 * | GET | `/:flock/booking/:uid/available_tickets` | the ticket types with their stock |
 * | GET | `/:flock/booking/:uid/tickets/all` | every live ticket |
 * | GET | `/:flock/booking/:uid/attendance/all` (and `…/attendance`, `/bookings/:uid/attendance`) | the sessions |
 * | PUT | `/:flock/booking/:uid/attendance` (and `/bookings/:uid/attendance`) | sets one attendee's attendance |
 */
import { formatDate } from "@records-service/core";
import type { Context } from "hono";
import { actingEngine } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import { readAttendanceInput, updateAttendance } from "../gateway/events/attendance.js";
import { eventPacket, ticketTypeEntry, ticketsByType } from "../gateway/events/packet.js";
import { readBookingSummaries, readOneBooking, recordsByUri } from "../gateway/events/read.js";
import { expandedTicket, namedUris, sessions } from "../gateway/events/tickets.js";
import { parseBookingState, selectBookingPage, type BookingSelection } from "../gateway/events/window.js";
import { pageInfo, readGatewayParams, readPaging } from "../gateway/params.js";
import { uriOf } from "../gateway/read-all.js";
import { liveRecord } from "../gateway/records.js";
import type { RouteEngine } from "../http/route-engine.js";

/** `page_size` of the event lists when none is given. */
const EVENTS_DEFAULT_PAGE_SIZE = 250;

const _PAGING = [
  queryParam("page", "1-based page number (default 1)", { type: "integer", minimum: 1 }),
  queryParam("page_size", `events per page, 1..1500 (default ${EVENTS_DEFAULT_PAGE_SIZE})`, { type: "integer", minimum: 1, maximum: 1500 }),
];

/**
 * The events gateway's routes over events, ticket types, tickets and attendance (orders:
 * routes/event-orders).
 *
 * @example
 * const events = eventRoutes(engine, guards); route(app, "GET", "/events/v2/:flock/booking/:uid", events.showEvent);
 */
export function eventRoutes(engine: RouteEngine, guards: RouteGuards) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    listEventsInWindow: [
      documented({ tag: "gateway-events", summary: "Events from 14 days ago to 90 days ahead", description: "Bookings whose days overlap the window (dates inclusive, on the service clock), ordered by start date, start time, title. Drafts and cancelled events are listed with their status.", auth: "key", query: _PAGING, ok: { status: 200, description: "{bookings: [summary packet], page, page_size, total, pages}", schema: "EventList" }, errors: [400, 403, 404] }),
      ...guard,
      listEventsInWindow,
    ],
    listEventsInState: [
      documented({ tag: "gateway-events", summary: "Events in a state: all, future, past, running, current or draft", auth: "key", query: _PAGING, ok: { status: 200, description: "{bookings: [summary packet], page, page_size, total, pages}", schema: "EventList" }, errors: [400, 403, 404] }),
      ...guard,
      listEventsInState,
    ],
    showEvent: [documented({ tag: "gateway-events", summary: "One event (the event packet)", auth: "key", ok: { status: 200, description: "every stored field of the booking plus the computed ones", schema: "EventPacket" }, errors: [403, 404] }), ...guard, showEvent],
    listTicketTypesWithStock: [
      documented({ tag: "gateway-events", summary: "An event's ticket types with their stock", auth: "key", ok: { status: 200, description: "{available_tickets: [entry]}", schema: "AvailableTickets" }, errors: [403, 404] }),
      ...guard,
      listTicketTypesWithStock,
    ],
    listEveryTicket: [
      documented({ tag: "gateway-events", summary: "Every ticket of an event, cancelled ones included", auth: "key", ok: { status: 200, description: "{booking, booking_uri, tickets}", schema: "EventTickets" }, errors: [403, 404] }),
      ...guard,
      listEveryTicket,
    ],
    listAttendance: [
      documented({ tag: "gateway-events", summary: "An event's attendance: one session per counted ticket", auth: "key", ok: { status: 200, description: "{booking, booking_uri, sessions}", schema: "EventAttendance" }, errors: [403, 404] }),
      ...guard,
      listAttendance,
    ],
    setAttendance: [
      documented({
        tag: "gateway-events",
        summary: "Set one attendee's attendance",
        description: "Writes `attendance` on every counted ticket of the event whose attendee is `person_uri`. Parameters in the query or in a JSON or form body (the body wins). No such ticket: 404 (create the ticket first for a walk-in).",
        auth: "key",
        query: [queryParam("person_uri", "the attendee's person URI (required)"), queryParam("status", "invited, accepted, declined, attended or no-show (required)", { type: "string", enum: ["invited", "accepted", "declined", "attended", "no-show"] })],
        ok: { status: 200, description: "vendor UpdatedEventAttendance", schema: "EventAttendanceUpdated" },
        errors: [400, 403, 404],
      }),
      ...guard,
      setAttendance,
    ],
  } as const;

  /** A page of the flock's events that `select` chooses (read after the paging, whose 400 comes first). */
  async function listed(c: Context<AppEnv, "/:flock">, select: () => BookingSelection) {
    const paging = readPaging(await readGatewayParams(c), EVENTS_DEFAULT_PAGE_SIZE);
    const chosen = select();
    const flock = c.req.param("flock");
    const { total, bookings } = await selectBookingPage(engine, flock, chosen, formatDate(clock.now()), paging);
    return c.json({ bookings: await readBookingSummaries(engine, flock, bookings), ...pageInfo(total, paging) });
  }

  function listEventsInWindow(c: Context<AppEnv, "/:flock">) {
    return listed(c, () => "window");
  }

  function listEventsInState(c: Context<AppEnv, "/:flock/bookings/:state">) {
    return listed(c, () => parseBookingState(c.req.param("state")));
  }

  async function showEvent(c: Context<AppEnv, "/:flock/booking/:uid">) {
    return c.json(eventPacket(await _bookingData(engine, c)));
  }

  async function listTicketTypesWithStock(c: Context<AppEnv, "/:flock/booking/:uid/available_tickets">) {
    const data = await _bookingData(engine, c);
    const byType = ticketsByType(data);
    return c.json({ available_tickets: data.types.map((t) => ticketTypeEntry(t, byType.get(uriOf(t)) ?? [])) });
  }

  async function listEveryTicket(c: Context<AppEnv, "/:flock/booking/:uid/tickets/all">) {
    const data = await _bookingData(engine, c);
    const named = await recordsByUri(engine, data.booking.flock, namedUris(data.tickets));
    return c.json({ booking: eventPacket(data), booking_uri: uriOf(data.booking), tickets: data.tickets.map((t) => expandedTicket(t, data, named)) });
  }

  async function listAttendance(c: Context<AppEnv, "/:flock/booking/:uid/attendance">) {
    const data = await _bookingData(engine, c);
    const named = await recordsByUri(engine, data.booking.flock, namedUris(data.tickets));
    return c.json({ booking: eventPacket(data), booking_uri: uriOf(data.booking), sessions: sessions(data, named) });
  }

  async function setAttendance(c: Context<AppEnv, "/:flock/booking/:uid/attendance">) {
    const flock = c.req.param("flock");
    const input = readAttendanceInput(await readGatewayParams(c), flock);
    const data = await _bookingData(engine, c);
    const named = await recordsByUri(engine, flock, [...namedUris(data.tickets), input.personUri]);
    return c.json(await updateAttendance(actingEngine(c, engine), data, input, named));
  }
}

// --- internal ---

async function _bookingData(engine: RouteEngine, c: Context<AppEnv, "/:flock/booking/:uid">) {
  const { flock, uid } = c.req.param();
  return readOneBooking(engine, await liveRecord(engine, flock, "booking", uid));
}
