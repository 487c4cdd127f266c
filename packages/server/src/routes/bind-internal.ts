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
import { notOfferedRoutes } from "./not-offered.js";
import { searchRoutes } from "./search.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindInternal(staged, deps);
 */
export function bindInternal(app: Hono<AppEnv>, deps: RouteDeps): void {
  const extras = membershipExtrasRoutes(deps.engine, deps.guards);
  const senders = emailSenderRoutes(deps.engine, deps.guards);
  const vehicles = vehicleSearchRoutes(deps.engine, deps.guards);
  const search = searchRoutes(deps.guards, deps.queries);
  const refused = notOfferedRoutes(deps.guards, deps.flocks);

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
  route(app, "GET", "/search/v2/:flock", search.searchContactsByText);
  route(app, "GET", "/search/v2/:flock/global", search.searchContactsByText);
  route(app, "GET", "/search/v2/:flock/person", search.findPersonsByFields);
  // The hosted operations deliberately not offered: a documented 501 after each path's auth checks.
  route(app, "POST", "/internal/v2/:flock/user_policy/standard", refused.refuseStandardPolicies);
  route(app, "POST", "/internal/v2/:flock/user_policy/:uid/groups", refused.refuseGroupsPolicy);
  route(app, "POST", "/internal/v2/:flock/user_policy/:uid/leaders", refused.refuseLeadersPolicy);
  route(app, "POST", "/internal/v2/:flock/user_policy/:uid/single", refused.refuseSinglePolicy);
  route(app, "POST", "/internal/v2/:flock/sync/:partner/:action/:data_type", refused.refusePartnerSync);
  route(app, "POST", "/internal/v2/system/build/warehouse/:facet", refused.refuseWarehouseBuild);
  route(app, "GET", "/search/v2/:flock/help", refused.refuseHelpSearch);
  route(app, "GET", "/public/v2/:flock/web", refused.refuseWebsitePages);
}
