/**
 * @module routes/bind-records
 * The generic record operations, the same for every resource type, on v1 and v2: create, list, get, update, delete, the record actions, bulk actions, exports, history and files.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { auditRoutes, provenanceRoutes } from "./audit.js";
import { bulkRoutes } from "./bulk.js";
import { fileRoutes } from "./files.js";
import { listExportRoutes } from "./list-export.js";
import { recordActionRoutes } from "./record-actions.js";
import { recordRoutes } from "./records.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindRecords(staged, deps);
 */
export function bindRecords(app: Hono<AppEnv>, deps: RouteDeps): void {
  const v1 = recordRoutes(deps.engine, deps.guards, "v1", deps.singles);
  const v2 = recordRoutes(deps.engine, deps.guards, "v2", deps.singles);
  const actionsV1 = recordActionRoutes(deps.engine, deps.guards);
  const actionsV2 = recordActionRoutes(deps.engine, deps.guards);
  const bulk = bulkRoutes(deps.tasks, deps.guards);
  const exports = listExportRoutes(deps.engine, deps.guards);
  const provenanceV1 = provenanceRoutes(deps.engine, deps.guards, deps.queries);
  const provenanceV2 = provenanceRoutes(deps.engine, deps.guards, deps.queries);
  const audit = auditRoutes(deps.engine, deps.guards, deps.queries);
  const files = fileRoutes(deps.engine.read, deps.guards);

  route(app, "POST", "/api/v1/:flock/:type", v1.createRecord);
  route(app, "GET", "/api/v1/:flock/:type", v1.listRecords);
  route(app, "GET", "/api/v1/:flock/:type/:id", v1.getRecord);
  route(app, ["PUT", "PATCH"], "/api/v1/:flock/:type/:id", v1.updateRecord);
  route(app, "DELETE", "/api/v1/:flock/:type/:id", v1.deleteRecord);
  route(app, "POST", "/api/v2/:flock/:type", v2.createRecord);
  route(app, "GET", "/api/v2/:flock/:type", v2.listRecords);
  route(app, "GET", "/api/v2/:flock/:type/:id", v2.getRecord);
  route(app, ["PUT", "PATCH"], "/api/v2/:flock/:type/:id", v2.updateRecord);
  route(app, "DELETE", "/api/v2/:flock/:type/:id", v2.deleteRecord);
  route(app, "POST", "/api/v1/:flock/:type/:id/restore", actionsV1.postTypeIdRestore);
  route(app, ["PUT", "POST"], "/api/v1/:flock/:type/:id/obfuscate", actionsV1.updateTypeIdObfuscate);
  route(app, "POST", "/api/v1/:flock/:type/:id/touch", actionsV1.postTypeIdTouch);
  route(app, "POST", "/api/v1/:flock/:type/:id/recalc", actionsV1.postTypeIdRecalc);
  route(app, "GET", "/api/v1/:flock/:type/:id/display", actionsV1.getTypeIdDisplay);
  route(app, "POST", "/api/v2/:flock/:type/:id/restore", actionsV2.postTypeIdRestore);
  route(app, ["PUT", "POST"], "/api/v2/:flock/:type/:id/obfuscate", actionsV2.updateTypeIdObfuscate);
  route(app, "POST", "/api/v2/:flock/:type/:id/touch", actionsV2.postTypeIdTouch);
  route(app, "POST", "/api/v2/:flock/:type/:id/recalc", actionsV2.postTypeIdRecalc);
  route(app, "GET", "/api/v2/:flock/:type/:id/display", actionsV2.getTypeIdDisplay);
  route(app, "POST", "/api/v1/:flock/bulk_action", bulk.queueBulkAction);
  route(app, "GET", "/api/v1/:flock/:type/export", exports.getTypeExport);
  route(app, "GET", "/api/v1/:flock/:type/:id/provenance", provenanceV1.getTypeIdProvenance);
  route(app, "GET", "/api/v2/:flock/:type/:id/provenance", provenanceV2.getTypeIdProvenance);
  route(app, "GET", "/audit/v2/:flock/audit", audit.getAudit);
  route(app, "GET", "/audit/v2/:flock/:type/:uid/audit", audit.getTypeUidAudit);
  route(app, "GET", "/files/v1/:flock/:fileId/:filename", files.getFileIdFilename);
}
