/**
 * @module routes/aggregates
 * Group-by counts, distinct values and picker look-ups, with the generic list's filters:
 * `GET /:flock/groupby/:type/:field/count` → `{results: [{count, value}]}` (with `by=month`
 * and the like, dates and timestamps counted per period: one request for a chart over days),
 * `GET /:flock/distinct/:type/:field` → `{results: [values]}`,
 * `GET /:flock/lookup/:type?q=` → `[{id, text}]` (JSONP with `callback=`, as the hosted
 * service answers). Mount before the generic record routes, on both surfaces.
 */
import { DEFAULT_LOOKUP_LIMIT, GROUP_PERIODS, MAX_LOOKUP_LIMIT, parseListQuery, type ListQuery } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/env.js";
import { queryInt, readQuery } from "../http/query.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParamsOf } from "../openapi/describe.js";
import { listQueryParams } from "../openapi/list-query.js";
import type { Surface } from "../http/surface.js";
import type { RecordQueries } from "../http/record-queries.js";
import type { RouteEngine } from "../http/route-engine.js";

/** A JSONP callback name: a dotted JavaScript identifier, nothing that could run as code. */
const JSONP_CALLBACK_RE = /^[A-Za-z_$][\w$]{0,63}(\.[A-Za-z_$][\w$]{0,63}){0,3}$/;

/** The look-up's own parameters; every other parameter is a list filter. */
const LookupQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.maxLength(200, "must be at most 200 characters")), ""),
  limit: v.optional(queryInt(1, MAX_LOOKUP_LIMIT)),
  callback: v.optional(v.pipe(v.string(), v.regex(JSONP_CALLBACK_RE, "must be a JavaScript function name (letters, digits, _ and $, dotted)"))),
});

/** The group-by's own parameter: a period dates and timestamps are cut to (an extension; see docs/decisions.md). */
const GroupQuery = v.object({
  by: v.optional(v.picklist(GROUP_PERIODS, `must be one of ${GROUP_PERIODS.join(", ")}`)),
});

/** Parameters of the look-up that are not filters. */
const LOOKUP_OWN = ["q", "limit", "callback"];

/**
 * The aggregate routes of one surface.
 *
 * @example
 * const routes = aggregateRoutes(engine, guards, queries, "v2"); route(app, "GET", "/api/v2/:flock/groupby/:type/:field/count", routes.getGroupbyTypeFieldCount);
 */
export function aggregateRoutes(engine: RouteEngine, guards: RouteGuards, queries: RecordQueries, surface: Surface) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(), guards.requireFlock] as const;
  const filters = (c: Context<AppEnv>, own: readonly string[] = []): ListQuery => {
    const params = [...new URL(c.req.url).searchParams].filter(([k]) => !own.includes(k));
    return parseListQuery(params, { surface, now: clock.now() });
  };

  return {
    getGroupbyTypeFieldCount: [describeGetGroupbyTypeFieldCount(), ...guard, getGroupbyTypeFieldCount],
    getDistinctTypeField: [describeGetDistinctTypeField(), ...guard, getDistinctTypeField],
    getLookupType: [describeGetLookupType(), ...guard, getLookupType],
  } as const;

  function describeGetGroupbyTypeFieldCount(): MiddlewareHandler {
    return documented({ tag: "aggregates", summary: "Count the records of a type by the values of a field", auth: "key", description: "The list filters narrow the records counted. With `by` (year, month or day) a date or timestamp value is counted in its period (`2026-03`); other values as they are.", query: [...queryParamsOf(GroupQuery, { by: "count dates and timestamps per year, month or day" }), ...listQueryParams(surface)], ok: { status: 200, description: "{field, groups, results: [{count, value}]}", schema: "ReadModel" }, errors: [400, 403, 404] });
  }

  async function getGroupbyTypeFieldCount(c: Context<AppEnv, "/:flock/groupby/:type/:field/count">) {
    const { flock, type, field } = c.req.param();
    const { by } = readQuery(c, GroupQuery);
    const { results, groups } = await queries.groupCount(flock, type, field, filters(c, ["by"]), by);
    return c.json({ field, groups, results: results.map((g) => ({ count: g.count, value: g.value })) });
  }

  function describeGetDistinctTypeField(): MiddlewareHandler {
    return documented({ tag: "aggregates", summary: "The distinct values of a field", auth: "key", description: "The list filters narrow the records read.", query: listQueryParams(surface), ok: { status: 200, description: "{field, count, results}", schema: "ReadModel" }, errors: [400, 403, 404] });
  }

  async function getDistinctTypeField(c: Context<AppEnv, "/:flock/distinct/:type/:field">) {
    const { flock, type, field } = c.req.param();
    const { results, values } = await queries.distinctValues(flock, type, field, filters(c));
    return c.json({ field, count: values, results });
  }

  function describeGetLookupType(): MiddlewareHandler {
    return documented({ tag: "aggregates", summary: "Picker entries: records whose display value contains q", auth: "key", description: "Every other parameter is a list filter.", query: queryParamsOf(LookupQuery, { q: "text the display value contains (case ignored; empty matches every record)", limit: `at most this many, 1 to ${MAX_LOOKUP_LIMIT}`, callback: "a JavaScript function name: answers JSONP" }), ok: { status: 200, description: "[{id, text}] as JSON; with callback, the same wrapped as JSONP (application/javascript)", schema: "LookupEntries", media: ["application/javascript"] }, errors: [400, 403, 404] });
  }

  async function getLookupType(c: Context<AppEnv, "/:flock/lookup/:type">) {
    const { flock, type } = c.req.param();
    const own = readQuery(c, LookupQuery);
    const entries = await queries.lookupEntries(flock, type, own.q, own.limit ?? DEFAULT_LOOKUP_LIMIT, filters(c, LOOKUP_OWN));
    if (!own.callback) return c.json(entries);
    // The comment guards against a body read as something else by an old content sniffer.
    return c.body(`/**/${own.callback}(${JSON.stringify(entries)});`, 200, {
      "Content-Type": "application/javascript; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
    });
  }
}
