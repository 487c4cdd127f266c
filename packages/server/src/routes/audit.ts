/**
 * @module routes/audit
 * Change history (the hosted service's audit gateway, under `/audit/v2`): a record's
 * history (`/{flock}/{type}/{uid}/audit`) and the flock's (`/{flock}/audit`), newest
 * first; and a record's `provenance` (under `/api/v1` and `/api/v2`). Built from the change
 * log (who made each write, through which application, what it changed) and the data
 * events; what the log no longer keeps, from the records themselves (core's audit/).
 */
import { badRequest, formatTimestamp, MAX_AUDIT_LIMIT, parseTimestamp } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/env.js";
import { queryInt, readQuery } from "../http/query.js";
import { hostedHistory } from "../gateway/audit-entries.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParamsOf } from "../openapi/describe.js";
import type { RecordQueries } from "../http/record-queries.js";
import type { RouteEngine } from "../http/route-engine.js";

const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,6})?)?$/;
const TIMESTAMP_FORM = "must be a date YYYY-MM-DD or a timestamp YYYY-MM-DDTHH:MM:SS (UTC)";
/** A date or timestamp, as the change log writes it (so text order is time order). */
const timestamp = v.optional(
  v.pipe(
    v.string(),
    v.regex(TIMESTAMP_RE, TIMESTAMP_FORM),
    v.check((s) => parseTimestamp(s) !== undefined, `${TIMESTAMP_FORM}, a real one`),
    v.transform((s) => formatTimestamp(parseTimestamp(s)!)),
  ),
);

/** `limit` and `since_days` of a record's history. */
const RecordAuditQuery = v.object({
  limit: v.optional(queryInt(1, MAX_AUDIT_LIMIT)),
  since_days: v.optional(queryInt(1, 36_500)),
});

/** Paging and filters of the flock's history. */
const FlockAuditQuery = v.object({
  limit: v.optional(queryInt(1, MAX_AUDIT_LIMIT)),
  skip: v.optional(queryInt(0, 1_000_000_000)),
  from: timestamp,
  to: timestamp,
  resource: v.optional(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/, "must be a resource type name"))),
});

/** Default number of history entries. */
const DEFAULT_LIMIT = 100;

/**
 * Routes `GET /:flock/:type/:uid/audit` and `GET /:flock/audit`; mount under `/audit/v2`.
 *
 * @example
 * const routes = auditRoutes(engine, guards, queries); route(app, "GET", "/audit/v2/:flock/audit", routes.getAudit);
 */
export function auditRoutes(engine: RouteEngine, guards: RouteGuards, queries: RecordQueries) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    getAudit: [describeGetAudit(), ...guard, getAudit],
    getTypeUidAudit: [describeGetTypeUidAudit(), ...guard, getTypeUidAudit],
  } as const;

  function describeGetAudit(): MiddlewareHandler {
    return documented({ tag: "audit", summary: "The flock's history, newest first", auth: "key", query: queryParamsOf(FlockAuditQuery, {
    limit: `entries answered, 1 to ${MAX_AUDIT_LIMIT} (default ${DEFAULT_LIMIT})`,
    skip: "entries passed over first, newest first (default 0)",
    from: "a date or UTC timestamp: entries at or after it",
    to: "a date or UTC timestamp, after from: entries before it",
    resource: "only writes of records of this type (before the kept log: events about them)",
  }), ok: { status: 200, description: "{count, skip, results}", schema: "FlockAudit" }, errors: [400, 403, 404] });
  }

  async function getAudit(c: Context<AppEnv, "/:flock/audit">) {
    const q = readQuery(c, FlockAuditQuery);
    if (q.from && q.to && q.from >= q.to) throw badRequest("invalid query parameter", `from (${q.from}) must be before to (${q.to})`);
    const { count, results } = await queries.flockHistory(c.req.param("flock"), {
      limit: q.limit ?? DEFAULT_LIMIT,
      skip: q.skip ?? 0,
      ...(q.from ? { from: q.from } : {}),
      ...(q.to ? { to: q.to } : {}),
      ...(q.resource ? { resource: q.resource } : {}),
    });
    return c.json({ count, skip: q.skip ?? 0, results });
  }

  function describeGetTypeUidAudit(): MiddlewareHandler {
    return documented({ tag: "audit", summary: "A record's history, newest first", auth: "key", query: queryParamsOf(RecordAuditQuery, {
    limit: `entries answered, 1 to ${MAX_AUDIT_LIMIT} (default ${DEFAULT_LIMIT})`,
    since_days: "only entries of the last this many days (1 to 36500)",
  }), ok: { status: 200, description: "{uri, count, results, related_uris}", schema: "RecordAudit" }, errors: [400, 403, 404] });
  }

  async function getTypeUidAudit(c: Context<AppEnv, "/:flock/:type/:uid/audit">) {
    const { flock, type, uid } = c.req.param();
    const q = readQuery(c, RecordAuditQuery);
    const record = await engine.get(flock, type, uid);
    const since = q.since_days ? formatTimestamp(new Date(clock.now().getTime() - q.since_days * 86_400_000)) : undefined;
    const history = await queries.recordHistory(record, { limit: q.limit ?? DEFAULT_LIMIT, ...(since ? { since } : {}) });
    return c.json(await hostedHistory(engine, record, history));
  }
}

/**
 * `GET /:flock/:type/:id/provenance` on both API surfaces.
 *
 * @example
 * const routes = provenanceRoutes(engine, guards, queries); route(app, "GET", "/api/v2/:flock/:type/:id/provenance", routes.getTypeIdProvenance);
 */
export function provenanceRoutes(engine: RouteEngine, guards: RouteGuards, queries: RecordQueries) {

  return {
    getTypeIdProvenance: [describeGetTypeIdProvenance(), guards.requireKey(), guards.requireFlock, getTypeIdProvenance],
  } as const;

  function describeGetTypeIdProvenance(): MiddlewareHandler {
    return documented({ tag: "audit", summary: "Where a record came from: when and by whom it was created, its creation event and source", auth: "key", ok: { status: 200, description: "the record's provenance", schema: "Provenance" }, errors: [403, 404] });
  }

  async function getTypeIdProvenance(c: Context<AppEnv, "/:flock/:type/:id/provenance">) {
    const { flock, type, id } = c.req.param();
    return c.json(await queries.recordProvenance(await engine.get(flock, type, id)));
  }
}
