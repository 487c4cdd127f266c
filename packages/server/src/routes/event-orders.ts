/**
 * @module routes/event-orders
 * The rest of the events gateway under `/events/v2/{flock}` (spec v2-gateway section 6):
 * summaries, orders, their questions, rebasing and the exports. Core keys of the flock only
 * (member tokens 403), checked before any record is read; every write goes through the
 * engine acting for the caller.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | `/:flock/booking/:uid/summary` | the summary packet |
 * | GET | `/:flock/booking/:uid/orders` | vendor `OrdersList` |
 * | GET | `/:flock/person/:uid/orders` | vendor `OrdersListForContact`, newest event first |
 * | GET, DELETE | `/:flock/:resource_type/:uid/order/:euid` | one order; deletes its tickets |
 * | GET | `/:flock/:resource_type/:uid/order/:euid/questions` | vendor `OrderQuestions` |
 * | PUT | `/:flock/booking/:uid/rebase/tickets`, `…/rebase/questions` | rebases tickets' dates; creates missing form responses |
 * | GET | `/:flock/booking/:uid/attendance/export`, `…/orders/export` | XLSX (or `format=csv`), streamed |
 * | GET | `/:flock/booking/:uid/orders/export/meta` | what the orders export would hold |
 */
import { formatDate, notFound, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { TABLE_CONTENT_TYPE, tableStream } from "../exports/table-file.js";
import { countExportRows, EXPORT_FIELDSETS, exportColumns, exportRows, readExportFormat, readFieldsets, readTicketTypes, type ExportKind } from "../gateway/events/exports.js";
import { buyersOf, deleteOrder, ORDER_CONTACT_TYPES, orderPacket, orderPayments, orderTickets, orderUnpaid } from "../gateway/events/orders.js";
import { dateOf, eventPacket, summaryPacket, type BookingData } from "../gateway/events/packet.js";
import { orderQuestions, rebaseQuestions } from "../gateway/events/questions.js";
import { readBookingData, readOneBooking, recordsByUri } from "../gateway/events/read.js";
import { rebaseTickets } from "../gateway/events/rebase.js";
import { compareBookings } from "../gateway/events/window.js";
import { readGatewayParams } from "../gateway/params.js";
import { holding, referencing, refOf, uriOf } from "../gateway/read-all.js";
import { liveRecord } from "../gateway/records.js";
import { actingEngine } from "../http/acting.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { RecordQueries } from "../http/record-queries.js";
import type { RouteEngine } from "../http/route-engine.js";

const _XLSX = TABLE_CONTENT_TYPE.xlsx;

/**
 * The section-6 routes of the events gateway; mount under `/events/v2` beside
 * `createEventRoutes`.
 *
 * @example
 * const routes = eventOrderRoutes(engine, guards, queries); route(app, "GET", "/events/v2/:flock/booking/:uid/summary", routes.getBookingUidSummary);
 */
export function eventOrderRoutes(engine: RouteEngine, guards: RouteGuards, queries: RecordQueries) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;
  const today = () => formatDate(clock.now());

  const orderDoc = { tag: "gateway-events", auth: "key" as const, errors: [403, 404] };

  const exportQuery = (kind: ExportKind) => [
    queryParam("fieldset", `column groups, repeatable or comma-separated: ${EXPORT_FIELDSETS[kind].join(", ")} (default core)`),
    queryParam("format", "xlsx (default) or csv", { type: "string", enum: ["xlsx", "csv"] }),
  ];
  const exportRoute = (kind: ExportKind) => async (c: Context<AppEnv>) => {
    const params = await readGatewayParams(c);
    const fieldsets = readFieldsets(params, kind);
    const format = readExportFormat(params);
    const booking = await _booking(engine, c);
    const types = await readTicketTypes(engine, booking);
    const body = tableStream(format, exportColumns(fieldsets), exportRows(engine, queries, booking, types, kind, fieldsets, today()), kind === "attendance" ? "Attendance" : "Orders");
    return new Response(body, {
      headers: { "content-type": TABLE_CONTENT_TYPE[format], "content-disposition": `attachment; filename="${kind}-${booking.id}.${format}"`, "cache-control": "no-store" },
    });
  };

  return {
    getBookingUidSummary: [describeGetBookingUidSummary(), ...guard, getBookingUidSummary],
    getBookingUidOrders: [describeGetBookingUidOrders(), ...guard, getBookingUidOrders],
    getPersonUidOrders: [describeGetPersonUidOrders(), ...guard, getPersonUidOrders],
    getResourceTypeUidOrderEuid: [describeGetResourceTypeUidOrderEuid(), ...guard, getResourceTypeUidOrderEuid],
    deleteResourceTypeUidOrderEuid: [describeDeleteResourceTypeUidOrderEuid(), ...guard, deleteResourceTypeUidOrderEuid],
    getResourceTypeUidOrderEuidQuestions: [describeGetResourceTypeUidOrderEuidQuestions(), ...guard, getResourceTypeUidOrderEuidQuestions],
    putBookingUidRebaseTickets: [describePutBookingUidRebaseTickets(), ...guard, putBookingUidRebaseTickets],
    putBookingUidRebaseQuestions: [describePutBookingUidRebaseQuestions(), ...guard, putBookingUidRebaseQuestions],
    getBookingUidAttendanceExport: [describeGetBookingUidAttendanceExport(), ...guard, exportRoute("attendance")],
    getBookingUidOrdersExport: [describeGetBookingUidOrdersExport(), ...guard, exportRoute("orders")],
    getBookingUidOrdersExportMeta: [describeGetBookingUidOrdersExportMeta(), ...guard, getBookingUidOrdersExportMeta],
  } as const;

  function describeGetBookingUidSummary(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "One event as its summary packet", auth: "key", ok: { status: 200, description: "the summary packet (the list entries' fields)", schema: "EventSummary" }, errors: [403, 404] });
  }

  async function getBookingUidSummary(c: Context<AppEnv, "/:flock/booking/:uid/summary">) {
    return c.json(summaryPacket(await _bookingData(engine, c)));
  }

  function describeGetBookingUidOrders(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "An event's orders, by buyer", description: "An order is one buyer's live tickets of the event. Amounts are per currency; paid counts the live payments (not cancelled or refunded) naming one of the order's tickets, or the event and the buyer, dated today or earlier.", auth: "key", ok: { status: 200, description: "vendor OrdersList", schema: "EventOrders" }, errors: [403, 404] });
  }

  async function getBookingUidOrders(c: Context<AppEnv, "/:flock/booking/:uid/orders">) {
    const data = await _bookingData(engine, c);
    const buyers = buyersOf(data);
    const named = await recordsByUri(engine, data.booking.flock, buyers);
    const payments = await orderPayments(engine, data, data.tickets);
    const orders = buyers.map((b) => [b, orderPacket(data, b, orderTickets(data, b), payments.get(b) ?? [], named, today())] as const);
    return c.json({
      booking: eventPacket(data),
      booking_uri: uriOf(data.booking),
      buyers: Object.fromEntries(orders),
      number_of_orders: orders.length,
      number_of_unpaid_orders: orders.filter(([, o]) => orderUnpaid(o)).length,
    });
  }

  function describeGetPersonUidOrders(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "A person's orders, newest event first", auth: "key", ok: { status: 200, description: "vendor OrdersListForContact", schema: "ContactOrders" }, errors: [403, 404] });
  }

  async function getPersonUidOrders(c: Context<AppEnv, "/:flock/person/:uid/orders">) {
    const { flock, uid } = c.req.param() as { flock: string; uid: string };
    const person = await liveRecord(engine, flock, "person", uid);
    const personUri = uriOf(person);
    const bought = holding(await referencing(engine, flock, personUri), "ticket", "buyer_ref", personUri);
    const bookingUris = [...new Set(bought.map((t) => refOf(t.data.booking_ref)).filter((u): u is string => u !== undefined))];
    const bookings = [...(await recordsByUri(engine, flock, bookingUris)).values()].filter((b) => b.type === "booking");
    // Newest event first; undated events last.
    bookings.sort((a, b) => {
      const [da, db] = [dateOf(a.data.start_date), dateOf(b.data.start_date)];
      return (da === null) !== (db === null) ? (da === null ? 1 : -1) : compareBookings(b, a);
    });
    const named = new Map([[personUri, person]]);
    const orders: Record<string, unknown>[] = [];
    for (const data of await readBookingData(engine, flock, bookings)) {
      const tickets = orderTickets(data, personUri);
      const payments = (await orderPayments(engine, data, tickets)).get(personUri) ?? [];
      orders.push({ booking_uri: uriOf(data.booking), booking_display: data.booking.displayValue, ...orderPacket(data, personUri, tickets, payments, named, today()) });
    }
    return c.json({ contact_uri: personUri, orders });
  }

  function describeGetResourceTypeUidOrderEuid(): MiddlewareHandler {
    return documented({ ...orderDoc, summary: "One order: a contact's tickets of an event", description: "`resource_type` is person or organisation (another is 404); no live ticket of that buyer for the event: 404.", ok: { status: 200, description: "vendor Order", schema: "EventOrder" } });
  }

  async function getResourceTypeUidOrderEuid(c: Context<AppEnv, "/:flock/:resource_type/:uid/order/:euid">) {
    const o = await _order(engine, c);
    const named = await recordsByUri(engine, o.data.booking.flock, [o.contactUri]);
    const payments = (await orderPayments(engine, o.data, o.tickets)).get(o.contactUri) ?? [];
    return c.json(orderPacket(o.data, o.contactUri, o.tickets, payments, named, today()));
  }

  function describeDeleteResourceTypeUidOrderEuid(): MiddlewareHandler {
    return documented({ ...orderDoc, summary: "Delete an order: its live tickets, through the engine", description: "Each ticket is deleted as any record (audit, change feed, data events, triggers see it). No live ticket: 404, nothing written.", ok: { status: 200, description: "vendor OrderDeleted", schema: "EventOrderDeleted" } });
  }

  async function deleteResourceTypeUidOrderEuid(c: Context<AppEnv, "/:flock/:resource_type/:uid/order/:euid">) {
    const o = await _order(engine, c);
    return c.json(await deleteOrder(actingEngine(c, engine), o.data, o.contactUri, o.tickets));
  }

  function describeGetResourceTypeUidOrderEuidQuestions(): MiddlewareHandler {
    return documented({ ...orderDoc, summary: "An order's questions: the buyer's and attendees' form responses for the event", ok: { status: 200, description: "vendor OrderQuestions", schema: "EventOrderQuestions" } });
  }

  async function getResourceTypeUidOrderEuidQuestions(c: Context<AppEnv, "/:flock/:resource_type/:uid/order/:euid/questions">) {
    const o = await _order(engine, c);
    return c.json(await orderQuestions(engine, o.data, o.contactUri, o.tickets));
  }

  function describePutBookingUidRebaseTickets(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "Set every ticket's start_date to the event's", description: "Each changed ticket is updated through the engine. A booking without start_date: 409, nothing written.", auth: "key", ok: { status: 200, description: "{ticket_changes: [{uri, old_date, new_date}], unchanged_tickets}", schema: "EventRebaseTickets" }, errors: [403, 404, 409] });
  }

  async function putBookingUidRebaseTickets(c: Context<AppEnv, "/:flock/booking/:uid/rebase/tickets">) {
    const data = await _bookingData(engine, c);
    return c.json(await rebaseTickets(actingEngine(c, engine), data));
  }

  function describePutBookingUidRebaseQuestions(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "Create the missing form responses of the event's buyers and attendees", description: "For the booking's order_form_ref (one response per buyer) and attendee_form_ref (one per attendee) of its counted tickets: status started, context_ref [the booking]. A form reference naming no live form: 404, nothing written.", auth: "key", ok: { status: 200, description: "{changes: [{uri}], unchanged}", schema: "EventRebaseQuestions" }, errors: [403, 404] });
  }

  async function putBookingUidRebaseQuestions(c: Context<AppEnv, "/:flock/booking/:uid/rebase/questions">) {
    const data = await _bookingData(engine, c);
    return c.json(await rebaseQuestions(engine, actingEngine(c, engine), data));
  }

  function describeGetBookingUidAttendanceExport(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "The attendance list as a spreadsheet, streamed", description: "One row per counted ticket, in ticket creation order; columns by fieldset. Bad fieldset or format: 400.", auth: "key", query: exportQuery("attendance"), ok: { status: 200, description: "the XLSX file (CSV with format=csv)", media: [_XLSX, "text/csv"] }, errors: [400, 403, 404] });
  }

  function describeGetBookingUidOrdersExport(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "The orders as a spreadsheet, one row per ticket, streamed", description: "One row per live ticket (cancelled ones included, with their status), in creation order; columns by fieldset. Bad fieldset or format: 400.", auth: "key", query: exportQuery("orders"), ok: { status: 200, description: "the XLSX file (CSV with format=csv)", media: [_XLSX, "text/csv"] }, errors: [400, 403, 404] });
  }

  function describeGetBookingUidOrdersExportMeta(): MiddlewareHandler {
    return documented({ tag: "gateway-events", summary: "What the orders export would hold", auth: "key", query: exportQuery("orders").slice(0, 1), ok: { status: 200, description: "{booking_uri, fieldsets, columns: [{field, label}], rows}", schema: "EventExportMeta" }, errors: [400, 403, 404] });
  }

  async function getBookingUidOrdersExportMeta(c: Context<AppEnv, "/:flock/booking/:uid/orders/export/meta">) {
    const fieldsets = readFieldsets(await readGatewayParams(c), "orders");
    const booking = await _booking(engine, c);
    return c.json({ booking_uri: uriOf(booking), fieldsets, columns: exportColumns(fieldsets), rows: await countExportRows(engine, booking, "orders") });
  }
}

// --- internal ---

async function _booking(engine: RouteEngine, c: Context<AppEnv>): Promise<StoredRecord> {
  const { flock, uid } = c.req.param() as { flock: string; uid: string };
  return liveRecord(engine, flock, "booking", uid);
}

async function _bookingData(engine: RouteEngine, c: Context<AppEnv>): Promise<BookingData> {
  return readOneBooking(engine, await _booking(engine, c));
}

/** The contact, the event and the contact's live tickets of it; 404 when any is missing. */
async function _order(engine: RouteEngine, c: Context<AppEnv>): Promise<{ data: BookingData; contactUri: string; tickets: StoredRecord[] }> {
  const { flock, resource_type: type, uid, euid } = c.req.param() as { flock: string; resource_type: string; uid: string; euid: string };
  if (!ORDER_CONTACT_TYPES.includes(type)) throw notFound("not found", `orders belong to a person or an organisation, not a ${JSON.stringify(type.slice(0, 40))}`);
  const contact = await liveRecord(engine, flock, type, uid);
  const data = await readOneBooking(engine, await liveRecord(engine, flock, "booking", euid));
  const contactUri = uriOf(contact);
  const tickets = orderTickets(data, contactUri);
  if (tickets.length === 0) throw notFound("no order", `${contactUri} holds no live ticket of booking ${uriOf(data.booking)}`);
  return { data, contactUri, tickets };
}
