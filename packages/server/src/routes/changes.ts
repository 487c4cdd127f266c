/**
 * @module routes/changes
 * `GET /:flock/changes/`: the flock's change feed as Server-Sent Events, for core keys of
 * the flock (self-service tokens 403). `Last-Event-ID` (what a reconnecting EventSource
 * sends) or `?since=` resumes after that id; without either the feed starts at the present
 * and announces that position first. `?type=` (repeatable, or comma-separated) keeps only
 * those resource types. Position errors (410 past the retention, 400 ahead of the feed)
 * and the caps on open feeds (429, see protection/feed-leases) are answered before the
 * stream starts. While it runs, the key and its access to the flock are checked again on
 * every wake and at every heartbeat, against the database (a `user revoke`, a new password
 * or a lost flock from any process); a lost credential ends the stream with an `end` event.
 */
import {
  badRequest,
  createChangeHub,
  isRecordsError,
  RecordsError,
  openChanges,
  sharedChangeHub,
  type AccountStore,
  type ChangeFeedStore,
  type Clock,
  type Connection,
  type FlockStore,
  type SharedState,
} from "@records-service/core";
import type { ServerResponse } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import { assertFlockAccess } from "../auth/access.js";
import { hashToken } from "../auth/tokens.js";
import type { AppEnv } from "../http/env.js";
import { changeEventStream, SSE_HEADERS, StreamEndError, type SseTimers, type StreamEnd } from "../http/sse-stream.js";
import { authenticateKey, bearerToken, type RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import { createFeedLeases, type FeedLeasesOptions } from "../protection/feed-leases.js";
import type { Settings } from "../settings.js";

/** Options of `changesRoutes` (all but `settings` optional; tests fake the timers). */
export interface ChangesRouteOptions {
  /**
   * The resolved settings' caps on open feeds (`changes.maxFeedsPerKey`, `maxFeedsPerFlock`,
   * across processes), the per-stream send buffer (`changes.maxBufferBytes`) and the
   * stream's heartbeat and stall grace (`changeStreams`).
   */
  settings: Pick<Settings, "changes" | "changeStreams">;
  /** With `timers` or in tests: a watcher of the routes' own, looking for commits this often (ms). */
  pollMs?: number;
  timers?: SseTimers;
  /** The caps' bookkeeping (tests inject a clock and timers); default over the limit rows of `ChangeRoles.shared`. */
  leases?: Omit<FeedLeasesOptions, "storage" | "maxPerKey" | "maxPerFlock">;
  /** Aborted at server shutdown: every open stream ends, so shutdown need not wait for them. */
  shutdown?: AbortSignal;
  /**
   * Gives back places under the caps still being written: shutdown awaits them before it
   * closes the database, so a restart does not leave a minute of 429s behind it.
   */
  releases?: Set<Promise<void>>;
}

/** The storage roles the change feed reads: the feed itself, the key and flock re-checks, the caps. */
export interface ChangeRoles {
  /** The flock's changes and their watcher; `syncChanges` before each re-check sees other processes' writes. */
  changes: ChangeFeedStore & Pick<Connection, "syncChanges">;
  accounts: AccountStore;
  flocks: FlockStore;
  /** The limit rows the caps on open feeds are counted in. */
  shared: Pick<SharedState, "updateLimit">;
}

/** Longest list of types one request may name. */
const MAX_FEED_TYPES = 50;

const position = v.pipe(v.string(), v.regex(/^\d{1,15}$/, "must be a change id: an integer, 0 or more"), v.transform(Number));
const typeName = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,62}$/, "must be resource type names (a-z, 0-9, _), comma-separated"));

/** The query parameters of the change feed. */
const changesQuerySchema = v.strictObject({
  since: v.optional(position),
  type: v.optional(v.pipe(v.array(typeName), v.maxLength(MAX_FEED_TYPES, `may name at most ${MAX_FEED_TYPES} types`))),
});

/**
 * The change feed route.
 *
 * @example
 * const routes = changesRoutes(guards, clock, roles, { settings: resolveSettings(), shutdown: controller.signal }); route(app, "GET", "/api/v1/:flock/changes", routes.getChanges);
 */
export function changesRoutes(guards: RouteGuards, clock: Clock, roles: ChangeRoles, opts: ChangesRouteOptions) {
  const { changes, changeStreams } = opts.settings;
  const { heartbeatMs } = changeStreams;
  const leases = createFeedLeases({
    storage: roles.shared,
    maxPerKey: changes.maxFeedsPerKey,
    maxPerFlock: changes.maxFeedsPerFlock,
    renewMs: heartbeatMs,
    ttlMs: Math.max(4 * heartbeatMs, 1000),
    ...opts.leases,
  });
  const credential = _credentialChecks(roles, clock);
  const hub = opts.pollMs !== undefined ? createChangeHub(roles.changes, { pollMs: opts.pollMs }) : sharedChangeHub(roles.changes);

  return {
    getChanges: [describeGetChanges(), guards.requireKey(), guards.requireFlock, getChanges],
  } as const;

  function describeGetChanges(): MiddlewareHandler {
    return documented({
      tag: "changes",
      summary: "The flock's change feed as Server-Sent Events",
      description:
        "One event per committed record change: `id` is the flock's change sequence, `data` is `{uri, resource_type, state, version, changed_at, fields}`. Resume with the Last-Event-ID header or `since`; a position older than the retention answers 410 naming the oldest id kept. Heartbeat comments every 15 s (with an `id:` when a type filter skipped changes). At most `changes.maxFeedsPerKey` open feeds per API key and `changes.maxFeedsPerFlock` per flock (429). A revoked or expired key, or a key that lost the flock, ends the stream with `event: end` and data `{reason, detail, last_event_id}`.",
      auth: "key",
      query: [
        queryParam("since", "resume after this change id (Last-Event-ID wins)", { type: "integer", minimum: 0 }),
        queryParam("type", "only changes of these resource types (repeated or comma-separated)", { type: "string" }),
      ],
      ok: { status: 200, description: "the event stream", media: ["text/event-stream"] },
      errors: [400, 403, 404, 410, 429],
    });
  }

  async function getChanges(c: Context<AppEnv, "/:flock/changes">) {
    const query = _query(c.req.query("since"), c.req.queries("type"));
    const lastEventId = c.req.header("last-event-id");
    const since = lastEventId !== undefined && lastEventId !== "" ? _lastEventId(lastEventId) : query.since;
    const flock = c.req.param("flock");
    // requireKey passed, so the header holds a key.
    const tokenHash = hashToken(bearerToken(c.req.header("authorization"))!);
    if (c.req.method === "HEAD") {
      // Hono answers HEAD with this handler and drops the body unread (never cancelled): a
      // stream here would hold its lease and watch for good. Answer the checks, open nothing.
      await openChanges(roles.changes, flock, { ...(since !== undefined ? { since } : {}), hub });
      return new Response(null, { status: 200, headers: SSE_HEADERS });
    }
    let lease;
    try {
      lease = await leases.acquire(tokenHash, flock);
    } catch (e) {
      if (!isRecordsError(e) || e.code !== "rate_limited") throw e;
      // A feed ends (and its place frees) within a heartbeat of its client leaving.
      throw new RecordsError(e.code, e.message, e.detail, { headers: { "Retry-After": String(Math.ceil(heartbeatMs / 1000)) } });
    }
    const done = new AbortController();
    done.signal.addEventListener(
      "abort",
      () => {
        const released = lease.release();
        opts.releases?.add(released);
        void released.finally(() => opts.releases?.delete(released));
      },
      { once: true },
    );
    const check = async () => {
      const lost = await credential(tokenHash, flock);
      if (lost) throw new StreamEndError(lost);
    };
    let feed;
    try {
      feed = await openChanges(roles.changes, flock, {
        ...(since !== undefined ? { since } : {}),
        ...(query.type ? { types: query.type } : {}),
        signal: done.signal,
        hub,
        beforeRead: check,
      });
    } catch (e) {
      done.abort();
      throw e;
    }
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const stream = changeEventStream(feed.follow(), {
      start: feed.after,
      heartbeatMs,
      stallMs: changeStreams.stallMs,
      maxBufferBytes: changes.maxBufferBytes,
      done,
      position: feed.position,
      onHeartbeat: () => void check().catch((e: unknown) => e instanceof StreamEndError && stream.end(e.end)),
      ...(outgoing ? { cut: () => void outgoing.destroy() } : {}),
      ...(opts.timers ? { timers: opts.timers } : {}),
      ...(opts.shutdown ? { shutdown: opts.shutdown } : {}),
    });
    lease.onLost(() => stream.end({ reason: "feed_limit", detail: "this feed's place under the caps on open feeds lapsed and was taken; reconnect later" }));
    return new Response(stream.body, { status: 200, headers: SSE_HEADERS });
  }
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

/**
 * Checks a key and its flock again, as a request would (after syncing with other
 * processes' commits); checks of one key and flock asked in the same turn (every feed woken
 * by one commit) share one lookup. Resolves why the feed must end, or undefined while it may go on.
 */
function _credentialChecks({ changes, accounts, flocks }: ChangeRoles, clock: Clock): (tokenHash: string, flock: string) => Promise<StreamEnd | undefined> {
  const inFlight = new Map<string, Promise<StreamEnd | undefined>>();
  const once = async (tokenHash: string, flock: string): Promise<StreamEnd | undefined> => {
    await changes.syncChanges();
    try {
      await assertFlockAccess(flocks, await authenticateKey(accounts, clock, tokenHash, ["core"]), flock);
      return undefined;
    } catch (e) {
      if (!isRecordsError(e) || ![401, 403, 404].includes(e.status)) throw e;
      const reason = e.status === 401 ? "unauthorized" : e.status === 403 ? "forbidden" : "not_found";
      return { reason, detail: e.detail };
    }
  };
  return (tokenHash, flock) => {
    const k = `${tokenHash} ${flock}`;
    let p = inFlight.get(k);
    if (!p) {
      // Joined only until it starts reading: the feeds one commit woke call in the same turn
      // and share it, while a later caller (a wake after a revoke) never takes the answer of
      // a check that read the key before its wake.
      p = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        inFlight.delete(k);
        return once(tokenHash, flock);
      });
      inFlight.set(k, p);
    }
    return p;
  };
}
