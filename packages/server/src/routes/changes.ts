/**
 * @module routes/changes
 * `GET /:flock/changes/`: the flock's change feed as Server-Sent Events, for core keys of
 * the flock (self-service tokens 403). `Last-Event-ID` (what a reconnecting EventSource
 * sends) or `?since=` resumes after that id; without either the feed starts at the present
 * and announces that position first. `?type=` (repeatable, or comma-separated) keeps only
 * those resource types. Position errors (410 past the retention, 400 ahead of the feed)
 * are answered before the stream starts.
 */
import { badRequest, openChanges, type RecordEngine } from "@records-service/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/env.js";
import { changeEventStream, SSE_DEFAULTS, SSE_HEADERS, type SseTimers } from "../http/sse-stream.js";
import { createRequireFlock, createRequireKey } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";

/** Options of `createChangesRoutes` (all optional; tests shorten the times and fake the timers). */
export interface ChangesRouteOptions {
  heartbeatMs?: number;
  stallMs?: number;
  maxBufferBytes?: number;
  /** How often an idle feed looks for new commits (ms). */
  pollMs?: number;
  timers?: SseTimers;
  /** Aborted at server shutdown: every open stream ends, so shutdown need not wait for them. */
  shutdown?: AbortSignal;
}

/** Longest list of types one request may name. */
export const MAX_FEED_TYPES = 50;

const position = v.pipe(v.string(), v.regex(/^\d{1,15}$/, "must be a change id: an integer, 0 or more"), v.transform(Number));
const typeName = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,62}$/, "must be resource type names (a-z, 0-9, _), comma-separated"));

/** The query parameters of the change feed. */
export const changesQuerySchema = v.strictObject({
  since: v.optional(position),
  type: v.optional(v.pipe(v.array(typeName), v.maxLength(MAX_FEED_TYPES, `may name at most ${MAX_FEED_TYPES} types`))),
});

/**
 * The change feed route.
 *
 * @example
 * app.route("/api/v1", createChangesRoutes(engine, { shutdown: controller.signal }));
 */
export function createChangesRoutes(engine: RecordEngine, opts: ChangesRouteOptions = {}): Hono<AppEnv> {
  const { storage, clock } = engine.context;
  const routes = new Hono<AppEnv>({ strict: false });
  routes.get(
    "/:flock/changes",
    documented({
      tag: "changes",
      summary: "The flock's change feed as Server-Sent Events",
      description:
        "One event per committed record change: `id` is the flock's change sequence, `data` is `{uri, resource_type, state, version, changed_at, fields}`. Resume with the Last-Event-ID header or `since`; a position older than the retention answers 410 naming the oldest id kept. Heartbeat comments every 15 s.",
      auth: "key",
      query: [
        queryParam("since", "resume after this change id (Last-Event-ID wins)", { type: "integer", minimum: 0 }),
        queryParam("type", "only changes of these resource types (repeated or comma-separated)", { type: "string" }),
      ],
      ok: { status: 200, description: "the event stream", media: ["text/event-stream"] },
      errors: [400, 403, 404, 410],
    }),
    createRequireKey(storage, clock), createRequireFlock(storage), async (c) => {
    const query = _query(c.req.query("since"), c.req.queries("type"));
    const lastEventId = c.req.header("last-event-id");
    const since = lastEventId !== undefined && lastEventId !== "" ? _lastEventId(lastEventId) : query.since;
    const done = new AbortController();
    const feed = await openChanges(storage, c.req.param("flock"), {
      ...(since !== undefined ? { since } : {}),
      ...(query.type ? { types: query.type } : {}),
      signal: done.signal,
      ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
    });
    const body = changeEventStream(feed.follow(), {
      start: feed.after,
      heartbeatMs: opts.heartbeatMs ?? SSE_DEFAULTS.heartbeatMs,
      stallMs: opts.stallMs ?? SSE_DEFAULTS.stallMs,
      maxBufferBytes: opts.maxBufferBytes ?? SSE_DEFAULTS.maxBufferBytes,
      done,
      ...(opts.timers ? { timers: opts.timers } : {}),
      ...(opts.shutdown ? { shutdown: opts.shutdown } : {}),
    });
    return new Response(body, { status: 200, headers: SSE_HEADERS });
  });
  return routes;
}

// --- internal ---

function _query(since: string | undefined, types: string[] | undefined): v.InferOutput<typeof changesQuerySchema> {
  const raw = {
    ...(since !== undefined ? { since } : {}),
    ...(types !== undefined ? { type: types.flatMap((t) => t.split(",")).filter((t) => t !== "") } : {}),
  };
  const parsed = v.safeParse(changesQuerySchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.[0]?.key;
    throw badRequest(`invalid ${String(key ?? "query")}`, `${String(key ?? "query")} ${issue.message}`);
  }
  return parsed.output;
}

function _lastEventId(raw: string): number {
  const parsed = v.safeParse(position, raw.trim());
  if (!parsed.success) throw badRequest("invalid Last-Event-ID", `Last-Event-ID ${parsed.issues[0].message}, not ${JSON.stringify(raw.slice(0, 40))}`);
  return parsed.output;
}
