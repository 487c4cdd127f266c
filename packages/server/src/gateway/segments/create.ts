/**
 * @module gateway/segments/create
 * The data of a new `segment` record from `POST /segments/v2/{flock}/create`'s parameters
 * (spec v2-gateway 7), every one checked before anything is written: `resource_type` (a
 * served type or `contact`), `segment_type`, each rule (through the generic list's filter
 * code, as counting will run it), view contexts, the parent segment and the URI lists. Any
 * problem is a 400 naming the parameter.
 */
import { badRequest, CONTACT_TYPE, parseRecordUri } from "@records-service/core";
import type { GatewayParams } from "../params.js";
import { liveRecord } from "../records.js";
import { booleanParam, listParam } from "../values.js";
import { SEGMENT_TYPES } from "./members.js";
import { segmentQuery } from "./rules.js";
import { VIEW_CONTEXTS } from "./view-contexts.js";
import type { RouteEngine } from "../../http/route-engine.js";

/**
 * The checked data of the new segment.
 *
 * @example
 * await newSegmentData(engine, "demo", params) // { name, resource_type: "person", segment_type: "dynamic", rules: {...}, ... }
 */
export async function newSegmentData(engine: RouteEngine, flock: string, params: GatewayParams): Promise<Record<string, unknown>> {
  const type = params.get("resource_type")?.trim() ?? "";
  if (type === "") throw badRequest("missing resource_type", "send resource_type: a served resource type, or contact (persons and organisations)");
  if (type !== CONTACT_TYPE && !engine.context.typesOf(flock).has(type)) {
    throw badRequest("bad resource_type", `resource_type ${JSON.stringify(type.slice(0, 64))} is not served in flock ${flock}; use a served type or contact`);
  }
  const segmentType = params.get("segment_type")?.trim() || "dynamic";
  if (!Object.hasOwn(SEGMENT_TYPES, segmentType)) throw badRequest("bad segment_type", `segment_type ${JSON.stringify(segmentType.slice(0, 40))} is not one of ${Object.keys(SEGMENT_TYPES).join(", ")}`);
  const rules = _rules(params);
  if (rules !== undefined) segmentQuery(rules, type, "the new segment", engine.context.clock.now());
  const contexts = listParam(params, "view_context") ?? [];
  const unknown = contexts.filter((w) => !VIEW_CONTEXTS.includes(w));
  if (unknown.length > 0) throw badRequest("bad view_context", `${JSON.stringify(unknown[0]!.slice(0, 60))} is not a view context; use ${VIEW_CONTEXTS.join(", ")}`);
  const data: Record<string, unknown> = {
    resource_type: type,
    segment_type: segmentType,
    view_context: contexts,
    active: booleanParam(params, "active", true),
    system_segment: booleanParam(params, "system_segment", false),
    email_marketing_sync: booleanParam(params, "email_marketing_sync", false),
    tags: listParam(params, "tags") ?? [],
    uris_include: _uriList(params, "uris_include", flock),
    uris_exclude: _uriList(params, "uris_exclude", flock),
  };
  for (const field of ["name", "description"]) {
    if (!params.has(field)) continue;
    const v = params.value(field);
    if (typeof v !== "string") throw badRequest(`bad ${field}`, `${field} must be a text`);
    data[field] = v;
  }
  if (rules !== undefined) data.rules = rules;
  const parent = params.get("parent_segment")?.trim();
  if (parent) data.parent_segment = await _parent(engine, flock, parent);
  return data;
}

// --- internal ---

/** `rules` as sent: a JSON object or array, or its JSON text (from a query string or form). */
function _rules(params: GatewayParams): unknown {
  if (!params.has("rules")) return undefined;
  let v = params.value("rules");
  if (typeof v === "string") {
    if (v.trim() === "") return undefined;
    try {
      v = JSON.parse(v);
    } catch {
      throw badRequest("bad rules", "rules must be a JSON object of list parameters or a JSON array of {field, operator, value}");
    }
  }
  if (typeof v !== "object" || v === null) throw badRequest("bad rules", "rules must be an object of list parameters or an array of {field, operator, value}");
  return v;
}

function _uriList(params: GatewayParams, name: string, flock: string): string[] {
  const list = listParam(params, name) ?? [];
  const bad = list.find((u) => parseRecordUri(u.endsWith("/") ? u : `${u}/`)?.flock !== flock);
  if (bad !== undefined) throw badRequest(`bad ${name}`, `${name}: ${JSON.stringify(bad.slice(0, 80))} is not a record URI of flock ${flock}`);
  return list;
}

async function _parent(engine: RouteEngine, flock: string, uri: string): Promise<string> {
  const key = parseRecordUri(uri.endsWith("/") ? uri : `${uri}/`);
  if (!key || key.flock !== flock || key.type !== "segment") throw badRequest("bad parent_segment", `parent_segment must be the URI of a segment of flock ${flock}`);
  try {
    await liveRecord(engine, flock, "segment", key.id);
  } catch {
    throw badRequest("bad parent_segment", `no segment ${uri.slice(0, 80)} in flock ${flock}`);
  }
  return `/${flock}/segment/${key.id}/`;
}
