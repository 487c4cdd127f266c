/**
 * @module routes/segments
 * The hosted service's segments gateway under `/segments/v2/{flock}` (spec v2-gateway
 * section 3): a segment is a `segment` record holding a resource type and saved rules,
 * run now through the generic list's filter code. Core keys of the flock only.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | `/:flock/find?name=` | active segments whose name contains `name` (case ignored), by name, paged |
 * | GET | `/:flock/segment/:uid/count` | `{count, description, segment}` |
 */
import type { RecordEngine } from "@records-service/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { createRequireFlock, createRequireKey } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import { pageInfo, pageOf, readGatewayParams, readPaging, requiredParam } from "../gateway/params.js";
import { readAll, uriOf } from "../gateway/read-all.js";
import { liveRecord } from "../gateway/records.js";
import { countSegment } from "../gateway/segments/members.js";
import { isActiveSegment, segmentPacket } from "../gateway/segments/packet.js";

/** `page_size` of `find` when none is given (the vendor gives none). */
export const SEGMENTS_DEFAULT_PAGE_SIZE = 25;

/**
 * The segments gateway; mount under `/segments/v2`.
 *
 * @example
 * app.route("/segments/v2", createSegmentRoutes(engine));
 */
export function createSegmentRoutes(engine: RecordEngine): Hono<AppEnv> {
  const { storage, clock } = engine.context;
  const routes = new Hono<AppEnv>({ strict: false });
  const guard = [createRequireKey(storage, clock), createRequireFlock(storage)] as const;

  routes.get(
    "/:flock/find",
    documented({
      tag: "segments",
      summary: "Find active segments by name",
      auth: "key",
      query: [
        queryParam("name", "text the segment's name contains, case ignored (required)"),
        queryParam("page", "1-based page number (default 1)", { type: "integer", minimum: 1 }),
        queryParam("page_size", `segments per page, 1..1500 (default ${SEGMENTS_DEFAULT_PAGE_SIZE})`, { type: "integer", minimum: 1, maximum: 1500 }),
      ],
      ok: { status: 200, description: "{segments: [segment packet], page, page_size, total, pages}", schema: "SegmentList" },
      errors: [400, 403, 404],
    }),
    ...guard,
    async (c) => {
      const params = await readGatewayParams(c);
      const paging = readPaging(params, SEGMENTS_DEFAULT_PAGE_SIZE);
      const name = requiredParam(params, "name", "the text to look for in segment names").trim();
      const needle = name.toLowerCase();
      const found = (await readAll(engine, c.req.param("flock")!, "segment", [["name__near", name]]))
        .filter((s) => isActiveSegment(s) && typeof s.data.name === "string" && s.data.name.toLowerCase().includes(needle))
        .sort((a, b) => _cmp(String(a.data.name), String(b.data.name)) || _cmp(a.id, b.id));
      return c.json({ segments: pageOf(found, paging).map(segmentPacket), ...pageInfo(found.length, paging) });
    },
  );

  routes.get(
    "/:flock/segment/:uid/count",
    documented({
      tag: "segments",
      summary: "How many records a segment holds now",
      description: "Runs the segment's rules through the generic list's filter code. A rule the filter code refuses is a 400 naming it.",
      auth: "key",
      ok: { status: 200, description: "{count, description, segment}", schema: "SegmentCount" },
      errors: [400, 403, 404],
    }),
    ...guard,
    async (c) => {
      const { flock, uid } = c.req.param() as { flock: string; uid: string };
      const segment = await liveRecord(engine, flock, "segment", uid);
      const count = await countSegment(engine, segment);
      return c.json({ count, description: typeof segment.data.description === "string" ? segment.data.description : null, segment: uriOf(segment) });
    },
  );

  return routes;
}

// --- internal ---

function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
