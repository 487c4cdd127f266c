/**
 * @module routes/bind-contacts
 * The contact read models (the contact type, contact details and memberships), counts and look-ups, finding, display values, avatars and member cards.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { aggregateRoutes } from "./aggregates.js";
import { cardLinkRoutes } from "./card-link.js";
import { contactTypeRoutes } from "./contact-type.js";
import { contactRoutes, memberDetailRoutes } from "./contacts.js";
import { derivedRoutes } from "./derived.js";
import { findRoutes } from "./find.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindContacts(staged, deps);
 */
export function bindContacts(app: Hono<AppEnv>, deps: RouteDeps): void {
  const contactsV1 = contactRoutes(deps.engine, deps.guards, deps.queries);
  const contactsV2 = contactRoutes(deps.engine, deps.guards, deps.queries);
  const contactV1 = contactTypeRoutes(deps.engine, deps.guards, deps.queries, "v1");
  const contactV2 = contactTypeRoutes(deps.engine, deps.guards, deps.queries, "v2");
  const aggregatesV1 = aggregateRoutes(deps.engine, deps.guards, deps.queries, "v1");
  const aggregatesV2 = aggregateRoutes(deps.engine, deps.guards, deps.queries, "v2");
  const findV1 = findRoutes(deps.engine, deps.guards, deps.queries);
  const findV2 = findRoutes(deps.engine, deps.guards, deps.queries);
  const findV2Flock = findRoutes(deps.engine, deps.guards, deps.queries);
  const members = memberDetailRoutes(deps.engine, deps.guards);
  const derived = derivedRoutes(deps.engine, deps.guards, deps.flocks, deps.secret);
  const cardLinks = cardLinkRoutes(deps.engine, deps.guards, deps.secret);

  route(app, "GET", "/api/v1/:flock/:type/:id/membership/all", contactsV1.getMembershipAll);
  route(app, "GET", "/api/v1/:flock/:type/:id/membership/summary", contactsV1.getMembershipSummary);
  route(app, "GET", "/api/v1/:flock/:type/:id/communications/detail", contactsV1.getCommunicationsDetail);
  route(app, "GET", "/api/v1/:flock/:type/:id/personal/detail", contactsV1.getPersonalDetail);
  route(app, "GET", "/api/v1/:flock/:type/:id/summary", contactsV1.getSummary);
  route(app, "GET", "/api/v1/:flock/user/membership", contactsV1.getUserMembership);
  route(app, "GET", "/api/v2/:flock/:type/:id/membership/all", contactsV2.getMembershipAll);
  route(app, "GET", "/api/v2/:flock/:type/:id/membership/summary", contactsV2.getMembershipSummary);
  route(app, "GET", "/api/v2/:flock/:type/:id/communications/detail", contactsV2.getCommunicationsDetail);
  route(app, "GET", "/api/v2/:flock/:type/:id/personal/detail", contactsV2.getPersonalDetail);
  route(app, "GET", "/api/v2/:flock/:type/:id/summary", contactsV2.getSummary);
  route(app, "GET", "/api/v2/:flock/user/membership", contactsV2.getUserMembership);
  route(app, "GET", "/api/v1/:flock/contact", contactV1.getContactRoute);
  route(app, "GET", "/api/v1/:flock/contact/mapreduce", contactV1.getContactMapreduce);
  route(app, "GET", "/api/v1/:flock/contact/:id", contactV1.getContactId);
  route(app, ["POST", "PUT", "PATCH", "DELETE"], "/api/v1/:flock/contact", contactV1.updateContact);
  route(app, ["POST", "PUT", "PATCH", "DELETE"], "/api/v1/:flock/contact/:id", contactV1.updateContactId);
  route(app, "GET", "/api/v2/:flock/contact", contactV2.getContactRoute);
  route(app, "GET", "/api/v2/:flock/contact/mapreduce", contactV2.getContactMapreduce);
  route(app, "GET", "/api/v2/:flock/contact/:id", contactV2.getContactId);
  route(app, ["POST", "PUT", "PATCH", "DELETE"], "/api/v2/:flock/contact", contactV2.updateContact);
  route(app, ["POST", "PUT", "PATCH", "DELETE"], "/api/v2/:flock/contact/:id", contactV2.updateContactId);
  route(app, "GET", "/api/v1/:flock/groupby/:type/:field/count", aggregatesV1.getGroupbyTypeFieldCount);
  route(app, "GET", "/api/v1/:flock/distinct/:type/:field", aggregatesV1.getDistinctTypeField);
  route(app, "GET", "/api/v1/:flock/lookup/:type", aggregatesV1.getLookupType);
  route(app, "GET", "/api/v2/:flock/groupby/:type/:field/count", aggregatesV2.getGroupbyTypeFieldCount);
  route(app, "GET", "/api/v2/:flock/distinct/:type/:field", aggregatesV2.getDistinctTypeField);
  route(app, "GET", "/api/v2/:flock/lookup/:type", aggregatesV2.getLookupType);
  route(app, "GET", "/api/v1/:flock/find/:type", findV1.findRecords);
  route(app, "GET", "/api/v2/find/:type/:flock", findV2.findRecords);
  route(app, "GET", "/api/v2/:flock/find/:type", findV2Flock.findRecords);
  route(app, "GET", "/api/v2/:flock/member/:id/detail", members.getMemberIdDetail);
  route(app, "GET", "/api/v2/:flock/member/:id/card", derived.getMemberIdCard);
  route(app, "GET", "/api/v2/:flock/:type/:id/avatar", derived.getTypeIdAvatar);
  route(app, "GET", "/api/v1/:flock/member/:id/card_url", cardLinks.getMemberIdCardUrl);
}
