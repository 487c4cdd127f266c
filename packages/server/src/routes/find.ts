/**
 * @module routes/find
 * Find one contact by what a form knows (`find/person`, `find/organisation`), with the
 * hosted service's matching order: `GET /api/v1/{flock}/find/{type}/` and
 * `GET /api/v2/find/{type}/{flock}`. One match (or several with
 * `take_first_if_multiple`): 200 with the rule that matched and the record; several: 409
 * naming them (never a guess); none: 404. Mount before the generic record routes.
 */
import { conflict, notFound, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/env.js";
import { queryFlag, readQuery } from "../http/query.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParamsOf } from "../openapi/describe.js";
import type { RecordQueries } from "../http/record-queries.js";
import type { RouteEngine } from "../http/route-engine.js";

const text = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "must be at most 200 characters")));

/** The find parameters (any of them; which rules apply depends on which are given). */
export const FindQuery = v.object({
  title: text,
  first_name: text,
  last_name: text,
  name: text,
  email: text,
  date_of_birth: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD"))),
  postal_code: text,
  domain: text,
  take_first_if_multiple: queryFlag,
});

/** The types find answers. */
const FIND_TYPES = ["person", "organisation"] as const;

/**
 * The find routes of one surface: `/:flock/find/:type` (v1 layout) or `/find/:type/:flock` (v2).
 *
 * @example
 * const routes = findRoutes(engine, guards, queries); route(app, "GET", "/api/v1/:flock/find/:type", routes.findRecords);
 */
export function findRoutes(engine: RouteEngine, guards: RouteGuards, queries: RecordQueries) {

  return {
    findRecords: [describeFind(), guards.requireKey(), guards.requireFlock, findRecords],
  } as const;

  function describeFind(): MiddlewareHandler {
    return documented({ tag: "search", summary: "Find the one person or organisation matching the given fields", auth: "key", description: "404 when nothing matches; 409 when several do and take_first_if_multiple is not set.", query: queryParamsOf(FindQuery), ok: { status: 200, description: "the record (single-record shape) with matched_by (the rule), count and uri", schema: "ReadModel" }, errors: [400, 403, 404, 409] });
  }

  async function findRecords(c: Context<AppEnv, any>) {
    const { flock, type } = c.req.param() as { flock: string; type: string };
    if (!(FIND_TYPES as readonly string[]).includes(type)) {
      throw notFound("not found", `find answers ${FIND_TYPES.join(" and ")}, not ${JSON.stringify(type)}`);
    }
    const found = await findByQuery(engine, queries, c, flock, type);
    return c.json({ matched_by: found.rule, count: found.count, uri: found.record.uri, ...found.record });
  }
}

/**
 * Runs find for the request's parameters: the one record (single-record shape), the rule
 * and how many matched. 404 when nothing matches; 409 for several without
 * `take_first_if_multiple`.
 */
async function findByQuery(engine: RouteEngine, queries: RecordQueries, c: Context<AppEnv>, flock: string, type: string) {
  const query = readQuery(c, FindQuery);
  const all = await findMatches(queries, c, flock, type);
  const first = all.matches[0];
  if (!first) throw notFound("no match", `no ${type} in flock '${flock}' matches the given fields`);
  if (all.matches.length > 1 && !query.take_first_if_multiple) {
    const uris = all.matches.slice(0, 10).map((r) => `/${r.flock}/${r.type}/${r.id}/`);
    throw conflict(
      "several matches",
      `${all.matches.length} ${type} records match by ${all.rule} (${uris.join(", ")}${all.matches.length > 10 ? ", ..." : ""}); ` +
        "send take_first_if_multiple=true to take the earliest created, or give more fields",
    );
  }
  return { rule: all.rule, count: all.matches.length, record: await engine.toSingle(first) };
}

/** Every match of the first rule that matches the request's parameters. */
export async function findMatches(queries: Pick<RecordQueries, "findContacts">, c: Context<AppEnv>, flock: string, type: string): Promise<{ rule: string | null; matches: StoredRecord[] }> {
  const query = readQuery(c, FindQuery);
  const given: Record<string, string | undefined> = { ...query, take_first_if_multiple: undefined };
  return queries.findContacts(flock, type, given);
}
