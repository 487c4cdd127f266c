/**
 * @module routes/segments
 * The hosted service's segments gateway under `/segments/v2/{flock}` (spec v2-gateway
 * section 3): a segment is a `segment` record holding a resource type and saved rules,
 * run now through the generic list's filter code. Core keys of the flock only.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | `/:flock` | active segments by name, paged |
 * | GET | `/:flock/all` | every live segment, inactive ones too, by name, paged |
 * | GET | `/:flock/find?name=` | active segments whose name contains `name` (case ignored), by name, paged |
 * | GET | `/:flock/trees` | segments nested under their parents (`children`) |
 * | POST | `/:flock/create` | a new segment, every parameter checked first |
 * | GET | `/:flock/segment/:uid/count` | `{count, description, segment}` |
 * | ... | `/:flock/segment/:uid/...` | config, look-up, members, exports, actions (routes/segment-members) |
 * | ... | `/:flock/fieldset...` | fieldsets (routes/fieldsets) |
 * | GET | `/:flock/:view_context` | active segments of a view context (the fixed words above keep their routes: routes/route-order) |
 */
import { badRequest, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { actingEngine } from "../http/acting.js";
import { documented, queryParam } from "../openapi/describe.js";
import { pageInfo, pageOf, readGatewayParams, readPaging, requiredParam } from "../gateway/params.js";
import { readAll, uriOf } from "../gateway/read-all.js";
import { liveRecord } from "../gateway/records.js";
import { countSegment } from "../gateway/segments/members.js";
import { isActiveSegment, segmentPacket } from "../gateway/segments/packet.js";
import { newSegmentData } from "../gateway/segments/create.js";
import { byName, segmentForest, type SegmentTree } from "../gateway/segments/trees.js";
import { FIXED_SEGMENT_WORDS, VIEW_CONTEXTS } from "../gateway/segments/view-contexts.js";
import type { RouteEngine } from "../http/route-engine.js";

/** `page_size` of `find` when none is given (the vendor gives none). */
const SEGMENTS_DEFAULT_PAGE_SIZE = 25;

/**
 * The segments' own routes (their members: routes/segment-members).
 *
 * @example
 * const segments = segmentRoutes(engine, guards); route(app, "GET", "/segments/v2/:flock/find", segments.findSegmentsByName);
 */
export function segmentRoutes(engine: RouteEngine, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    listActiveSegments: [describeList("List active segments", "Active, live segments by name (case ignored)."), ...guard, listActiveSegments],
    listEverySegment: [describeList("List every segment", "Live segments by name, inactive ones too."), ...guard, listEverySegment],
    listSegmentsOfViewContext: [
      describeList("List active segments of a view context", `view_context is one of ${VIEW_CONTEXTS.join(", ")}; another word is a 400.`),
      ...guard,
      listSegmentsOfViewContext,
    ],
    findSegmentsByName: [describeFindSegmentsByName(), ...guard, findSegmentsByName],
    nestSegmentTrees: [describeNestSegmentTrees(), ...guard, nestSegmentTrees],
    createSegment: [describeCreateSegment(), ...guard, createSegment],
    countSegmentMembers: [describeCountSegmentMembers(), ...guard, countSegmentMembers],
  } as const;

  function describeList(summary: string, description: string): MiddlewareHandler {
    return documented({
      tag: "segments",
      summary,
      description,
      auth: "key",
      query: _PAGING,
      ok: { status: 200, description: "{segments: [segment packet], page, page_size, total, pages}", schema: "SegmentList" },
      errors: [400, 403, 404],
    });
  }

  /** A page of the flock's live segments that `keep` keeps, by name. */
  async function listed(c: Context<AppEnv, "/:flock">, keep: (s: StoredRecord) => boolean) {
    const paging = readPaging(await readGatewayParams(c), SEGMENTS_DEFAULT_PAGE_SIZE);
    const found = (await readAll(engine, c.req.param("flock"), "segment", [])).filter(keep).sort(byName);
    return c.json({ segments: pageOf(found, paging).map(segmentPacket), ...pageInfo(found.length, paging) });
  }

  function listActiveSegments(c: Context<AppEnv, "/:flock">) {
    return listed(c, isActiveSegment);
  }

  function listEverySegment(c: Context<AppEnv, "/:flock/all">) {
    return listed(c, () => true);
  }

  function listSegmentsOfViewContext(c: Context<AppEnv, "/:flock/:view_context">) {
    const context = c.req.param("view_context");
    if (!VIEW_CONTEXTS.includes(context)) {
      const fixed = FIXED_SEGMENT_WORDS.includes(context) ? ` (${context} is a path of its own, not a view context)` : "";
      throw badRequest("unknown view_context", `${JSON.stringify(context.slice(0, 60))} is not a view context${fixed}; use one of ${VIEW_CONTEXTS.join(", ")}`);
    }
    return listed(c, (s) => isActiveSegment(s) && (segmentPacket(s).view_context as unknown[]).includes(context));
  }

  function describeFindSegmentsByName(): MiddlewareHandler {
    return documented({
      tag: "segments",
      summary: "Find active segments by name",
      auth: "key",
      query: [queryParam("name", "text the segment's name contains, case ignored (required)"), ..._PAGING],
      ok: { status: 200, description: "{segments: [segment packet], page, page_size, total, pages}", schema: "SegmentList" },
      errors: [400, 403, 404],
    });
  }

  async function findSegmentsByName(c: Context<AppEnv, "/:flock/find">) {
    const params = await readGatewayParams(c);
    const paging = readPaging(params, SEGMENTS_DEFAULT_PAGE_SIZE);
    const name = requiredParam(params, "name", "the text to look for in segment names").trim();
    const needle = name.toLowerCase();
    const found = (await readAll(engine, c.req.param("flock"), "segment", [["name__near", name]]))
      .filter((s) => isActiveSegment(s) && typeof s.data.name === "string" && s.data.name.toLowerCase().includes(needle))
      .sort((a, b) => _cmp(String(a.data.name), String(b.data.name)) || _cmp(a.id, b.id));
    return c.json({ segments: pageOf(found, paging).map(segmentPacket), ...pageInfo(found.length, paging) });
  }

  function describeNestSegmentTrees(): MiddlewareHandler {
    return documented({
      tag: "segments",
      summary: "Segments nested under their parents",
      description: "Roots are live segments without a parent, or whose parent is missing or deleted; each carries its descendants under children, by name. A segment appears once even when parents loop.",
      auth: "key",
      ok: { status: 200, description: "{segments: [segment packet + children]}", schema: "SegmentTrees" },
      errors: [403, 404],
    });
  }

  async function nestSegmentTrees(c: Context<AppEnv, "/:flock/trees">) {
    const forest = segmentForest(await readAll(engine, c.req.param("flock"), "segment", []));
    return c.json({ segments: forest.map(_treePacket) });
  }

  function describeCreateSegment(): MiddlewareHandler {
    return documented({
      tag: "segments",
      summary: "Create a segment",
      description: "Every parameter is checked before anything is written: resource_type (a served type or contact), segment_type, each rule (through the generic list's filter code), view contexts, parent_segment, the URI lists. The segment is created through the engine (audit, change feed, data events).",
      auth: "key",
      body: { schema: "SegmentCreateBody", required: false, media: ["application/json", "application/x-www-form-urlencoded"] },
      ok: { status: 201, description: "the segment packet", schema: "SegmentPacket" },
      errors: [400, 403, 404],
    });
  }

  async function createSegment(c: Context<AppEnv, "/:flock/create">) {
    const flock = c.req.param("flock");
    const data = await newSegmentData(engine, flock, await readGatewayParams(c));
    const created = await actingEngine(c, engine).create(flock, "segment", data);
    return c.json(segmentPacket(created), 201);
  }

  function describeCountSegmentMembers(): MiddlewareHandler {
    return documented({
      tag: "segments",
      summary: "How many records a segment holds now",
      description: "Runs the segment's rules through the generic list's filter code. A rule the filter code refuses is a 400 naming it.",
      auth: "key",
      ok: { status: 200, description: "{count, description, segment}", schema: "SegmentCount" },
      errors: [400, 403, 404],
    });
  }

  async function countSegmentMembers(c: Context<AppEnv, "/:flock/segment/:uid/count">) {
    const { flock, uid } = c.req.param();
    const segment = await liveRecord(engine, flock, "segment", uid);
    const count = await countSegment(engine, segment);
    return c.json({ count, description: typeof segment.data.description === "string" ? segment.data.description : null, segment: uriOf(segment) });
  }
}

// --- internal ---

const _PAGING = [
  queryParam("page", "1-based page number (default 1)", { type: "integer", minimum: 1 }),
  queryParam("page_size", `segments per page, 1..1500 (default ${SEGMENTS_DEFAULT_PAGE_SIZE})`, { type: "integer", minimum: 1, maximum: 1500 }),
];

function _treePacket(tree: SegmentTree): Record<string, unknown> {
  return { ...segmentPacket(tree.segment), children: tree.children.map(_treePacket) };
}

function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
