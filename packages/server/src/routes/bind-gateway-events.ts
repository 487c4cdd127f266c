/**
 * @module routes/bind-gateway-events
 * The events gateway (/events/v2): orders, summaries, rebasing and exports over booking, bookable and ticket records.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { eventOrderRoutes } from "./event-orders.js";
import { eventRoutes } from "./events.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindGatewayEvents(staged, deps);
 */
export function bindGatewayEvents(app: Hono<AppEnv>, deps: RouteDeps): void {
  const events = eventRoutes(deps.engine, deps.guards);
  const orders = eventOrderRoutes(deps.engine, deps.guards, deps.queries);

  route(app, "GET", "/events/v2/:flock", events.listEventsInWindow);
  route(app, "GET", "/events/v2/:flock/bookings", events.listEventsInWindow);
  route(app, "GET", "/events/v2/:flock/bookings/:state", events.listEventsInState);
  route(app, "GET", "/events/v2/:flock/booking/:uid", events.showEvent);
  route(app, "GET", "/events/v2/:flock/booking/:uid/available_tickets", events.listTicketTypesWithStock);
  route(app, "GET", "/events/v2/:flock/booking/:uid/tickets/all", events.listEveryTicket);
  route(app, "GET", "/events/v2/:flock/booking/:uid/attendance/all", events.listAttendance);
  route(app, "GET", "/events/v2/:flock/booking/:uid/attendance", events.listAttendance);
  route(app, "GET", "/events/v2/:flock/bookings/:uid/attendance", events.listAttendance);
  route(app, "PUT", "/events/v2/:flock/booking/:uid/attendance", events.setAttendance);
  route(app, "PUT", "/events/v2/:flock/bookings/:uid/attendance", events.setAttendance);

  route(app, "GET", "/events/v2/:flock/booking/:uid/summary", orders.getBookingUidSummary);
  route(app, "GET", "/events/v2/:flock/booking/:uid/orders", orders.getBookingUidOrders);
  route(app, "GET", "/events/v2/:flock/person/:uid/orders", orders.getPersonUidOrders);
  route(app, "GET", "/events/v2/:flock/:resource_type/:uid/order/:euid", orders.getResourceTypeUidOrderEuid);
  route(app, "DELETE", "/events/v2/:flock/:resource_type/:uid/order/:euid", orders.deleteResourceTypeUidOrderEuid);
  route(app, "GET", "/events/v2/:flock/:resource_type/:uid/order/:euid/questions", orders.getResourceTypeUidOrderEuidQuestions);
  route(app, "PUT", "/events/v2/:flock/booking/:uid/rebase/tickets", orders.putBookingUidRebaseTickets);
  route(app, "PUT", "/events/v2/:flock/booking/:uid/rebase/questions", orders.putBookingUidRebaseQuestions);
  route(app, "GET", "/events/v2/:flock/booking/:uid/attendance/export", orders.getBookingUidAttendanceExport);
  route(app, "GET", "/events/v2/:flock/booking/:uid/orders/export", orders.getBookingUidOrdersExport);
  route(app, "GET", "/events/v2/:flock/booking/:uid/orders/export/meta", orders.getBookingUidOrdersExportMeta);
}
