/**
 * @module routes/bind-segments
 * The segments gateway (/segments/v2): saved queries (segment records), found by name,
 * counted, their members listed and exported, and fieldsets.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { fieldsetRoutes } from "./fieldsets.js";
import { segmentMemberRoutes } from "./segment-members.js";
import { segmentRoutes } from "./segments.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindSegments(staged, deps);
 */
export function bindSegments(app: Hono<AppEnv>, deps: RouteDeps): void {
  const segments = segmentRoutes(deps.engine, deps.guards);
  const members = segmentMemberRoutes(deps.engine, deps.guards, deps.tasks);
  const fieldsets = fieldsetRoutes(deps.engine, deps.guards);

  route(app, "GET", "/segments/v2/:flock", segments.listActiveSegments);
  route(app, "GET", "/segments/v2/:flock/all", segments.listEverySegment);
  route(app, "GET", "/segments/v2/:flock/find", segments.findSegmentsByName);
  route(app, "GET", "/segments/v2/:flock/trees", segments.nestSegmentTrees);
  route(app, "POST", "/segments/v2/:flock/create", segments.createSegment);
  route(app, "GET", "/segments/v2/:flock/:view_context", segments.listSegmentsOfViewContext);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/count", segments.countSegmentMembers);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/config", members.showSegmentConfig);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/lookup", members.lookUpSegmentMembers);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/all", members.listSegmentMembers);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/all/xlsx", members.queueXlsxExport);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/all/excel", members.queueExcelExport);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/all/csv", members.streamCsvExport);
  route(app, "POST", "/segments/v2/:flock/segment/:uid/action/delete", members.queueMemberDeletion);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/all/pdf", members.refusePdfReport);
  route(app, "GET", "/segments/v2/:flock/segment/:uid/all/sync_mailchimp", members.refuseMailchimpSync);
  route(app, "POST", "/segments/v2/:flock/segment/:uid/action/replace", members.refuseReplace);

  route(app, "GET", "/segments/v2/:flock/fieldset", fieldsets.getFieldset);
  route(app, "POST", "/segments/v2/:flock/fieldset", fieldsets.postFieldset);
  route(app, "GET", "/segments/v2/:flock/fieldset/:uid", fieldsets.getFieldsetUid);
  route(app, "DELETE", "/segments/v2/:flock/fieldset/:uid", fieldsets.deleteFieldsetUid);
  route(app, "DELETE", "/segments/v2/:flock/fieldset", fieldsets.deleteFieldset);
}
