/**
 * @module routes/bind-internal
 * The hosted gateways this service serves beside events, segments and invoices: the internal
 * one (/internal/v2: membership-type extras, email senders), search (/search/v2: vehicles,
 * persons and organisations) and the hosted operations deliberately not offered (501).
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { emailSenderRoutes } from "./email-senders.js";
import { membershipExtrasRoutes } from "./membership-extras.js";
import { vehicleSearchRoutes } from "./vehicle-search.js";
import { createNotOfferedRoutes } from "./not-offered.js";
import { createSearchRoutes } from "./search.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindInternal(staged, deps);
 */
export function bindInternal(app: Hono<AppEnv>, deps: RouteDeps): void {
  const extras = membershipExtrasRoutes(deps.engine);
  const senders = emailSenderRoutes(deps.engine);
  const vehicles = vehicleSearchRoutes(deps.engine);

  route(app, "GET", "/internal/v2/:flock/membership_type/:uid/extras", extras.getBase);
  route(app, "POST", "/internal/v2/:flock/membership_type/:uid/extras/additional_field", extras.postAdditionalField);
  route(app, "DELETE", "/internal/v2/:flock/membership_type/:uid/extras/additional_field", extras.deleteAdditionalField);
  route(app, "POST", "/internal/v2/:flock/membership_type/:uid/extras/condition", extras.postCondition);
  route(app, "DELETE", "/internal/v2/:flock/membership_type/:uid/extras/condition", extras.deleteCondition);
  route(app, "GET", "/internal/v2/:flock/email_senders", senders.getEmailSenders);
  route(app, "POST", "/internal/v2/:flock/email_senders", senders.postEmailSenders);
  route(app, "GET", "/internal/v2/:flock/email_sender/:uid", senders.getOne);
  route(app, "PUT", "/internal/v2/:flock/email_sender/:uid", senders.putOne);
  route(app, "DELETE", "/internal/v2/:flock/email_sender/:uid", senders.deleteOne);
  route(app, "GET", "/search/v2/:flock/car", vehicles.getCar);
  // Person and organisation search (routes/search) and the documented 501s (routes/not-offered): their own tables.
  app.route("/search/v2", createSearchRoutes(deps.engine));
  app.route("/", createNotOfferedRoutes(deps.engine));
}
