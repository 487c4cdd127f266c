/**
 * @module gateway/segments/members
 * Counting a segment's members now (spec v2-gateway 3.1): live records of its type (for
 * `contact`: persons and organisations), `(rule matches if dynamic or hybrid) ∪ (uris_include
 * if static or hybrid) − uris_exclude`; `auxiliary` has none. The rule matches are counted
 * by the storage (the same query as the generic list's `total`); only the listed URIs are
 * read, and tested against the same query in code (core's reference evaluation).
 */
import { badRequest, CONTACT_TYPE, CONTACT_TYPES, matchesQuery, type ListQuery, type StoredRecord } from "@records-service/core";
import { recordsByUri } from "../events/read.js";
import { refOf, uriOf } from "../read-all.js";
import { segmentQuery } from "./rules.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** The segment types and whether each takes rule matches and listed URIs. */
export const SEGMENT_TYPES: Readonly<Record<string, { rules: boolean; listed: boolean }>> = {
  dynamic: { rules: true, listed: false },
  static: { rules: false, listed: true },
  hybrid: { rules: true, listed: true },
  auxiliary: { rules: false, listed: false },
};

/**
 * The number of members of `segment` now. A bad rule, an unknown resource type or an
 * unknown segment type is a 400 naming it.
 *
 * @example
 * await countSegment(engine, segment) // 42
 */
export async function countSegment(engine: RouteEngine, segment: StoredRecord): Promise<number> {
  const { types, kind, query } = segmentPlan(engine, segment);
  if (!kind.rules && !kind.listed) return 0;
  let count = 0;
  if (kind.rules) {
    for (const type of types) count += (await engine.read.listRecords(segment.flock, type, query)).total;
  }
  const listed = async (field: string) => {
    const uris = _uris(segment.data[field]);
    return [...(await recordsByUri(engine, segment.flock, uris)).values()].filter((r) => types.includes(r.type));
  };
  const byRule = (r: StoredRecord) => kind.rules && matchesQuery(r, query);
  const included = kind.listed ? await listed("uris_include") : [];
  const includedUris = new Set(included.map(uriOf));
  for (const r of included) if (!byRule(r)) count += 1;
  for (const r of await listed("uris_exclude")) if (byRule(r) || includedUris.has(uriOf(r))) count -= 1;
  return count;
}

/** What a segment counts over: its types, its segment type's parts, its query. */
export function segmentPlan(engine: Pick<RouteEngine, "context">, segment: StoredRecord): { types: readonly string[]; kind: { rules: boolean; listed: boolean }; query: ListQuery } {
  const uri = uriOf(segment);
  const type = segment.data.resource_type;
  if (typeof type !== "string" || type === "") throw badRequest("invalid segment", `segment ${uri} names no resource_type`);
  const served = engine.context.typesOf(segment.flock);
  if (type !== CONTACT_TYPE && !served.has(type)) {
    throw badRequest("invalid segment", `segment ${uri}: resource_type ${JSON.stringify(type.slice(0, 64))} is not served in this flock`);
  }
  const segmentType = typeof segment.data.segment_type === "string" && segment.data.segment_type !== "" ? segment.data.segment_type : "dynamic";
  const kind = Object.hasOwn(SEGMENT_TYPES, segmentType) ? SEGMENT_TYPES[segmentType]! : undefined;
  if (!kind) throw badRequest("invalid segment", `segment ${uri}: segment_type ${JSON.stringify(segmentType.slice(0, 40))} is not one of ${Object.keys(SEGMENT_TYPES).join(", ")}`);
  // The rules are checked whatever the type, so a bad rule never lies dormant.
  const query = segmentQuery(segment.data.rules, type === CONTACT_TYPE ? "contact" : type, uri, engine.context.clock.now());
  return { types: type === CONTACT_TYPE ? CONTACT_TYPES : [type], kind, query };
}

// --- internal ---

function _uris(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return [...new Set(list.map(refOf).filter((u): u is string => u !== undefined))];
}
