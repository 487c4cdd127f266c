/**
 * @module routes/bind-self-service
 * What a member reaches with a self-service token: reservations, form responses and their card as a PDF.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { selfServiceFormRoutes } from "./selfservice-forms.js";
import { selfServicePdfRoutes } from "./selfservice-pdf.js";
import { selfServiceRoutes } from "./selfservice.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindSelfService(staged, deps);
 */
export function bindSelfService(app: Hono<AppEnv>, deps: RouteDeps): void {
  const reservations = selfServiceRoutes(deps.engine, deps.guards);
  const reservationsV2 = selfServiceRoutes(deps.engine, deps.guards);
  const forms = selfServiceFormRoutes(deps.engine, deps.guards);
  const pdf = selfServicePdfRoutes(deps.engine, deps.guards, deps.flocks);

  route(app, "GET", "/api/v2/selfservice/:flock/reservations", reservations.getReservations);
  route(app, "GET", "/api/v2/selfservice/:flock/reservation/:id", reservations.getReservationId);
  route(app, "DELETE", "/api/v2/selfservice/:flock/reservation/:id", reservations.deleteReservationId);
  route(app, "GET", "/selfservice/v2/:flock/reservations", reservationsV2.getReservations);
  route(app, "GET", "/selfservice/v2/:flock/reservation/:id", reservationsV2.getReservationId);
  route(app, "DELETE", "/selfservice/v2/:flock/reservation/:id", reservationsV2.deleteReservationId);
  route(app, "POST", "/selfservice/v2/:flock/form_response", forms.postFormResponse);
  route(app, "PUT", "/selfservice/v2/:flock/form_response/:uid/allocate", forms.putFormResponseUidAllocate);
  route(app, "DELETE", "/selfservice/v2/:flock/form_response/:uid/allocate", forms.deleteFormResponseUidAllocate);
  route(app, "GET", "/selfservice-pdf/v2/:flock/member/:id/card", pdf.getMemberIdCard);
}
