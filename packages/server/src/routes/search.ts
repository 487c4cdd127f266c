/**
 * @module routes/search
 * The hosted service's search gateway, under `/search/v2/{flock}`: `?q=` (and its alias
 * `/global`) over persons and organisations, closest first, answered from the storage's
 * search index; `/person` takes the find parameters and lists every match of the first
 * rule that matches.
 */
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LENGTH, MAX_SEARCH_LIMIT, SEARCH_TYPES, searchResult } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/env.js";
import { queryInt, readQuery } from "../http/query.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParamsOf } from "../openapi/describe.js";
import { FindQuery, findMatches } from "./find.js";
import type { RecordQueries } from "../http/record-queries.js";

/** `?q=` (required) and `limit`. */
const SearchQuery = v.object({
  q: v.pipe(v.string(), v.maxLength(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`)),
  limit: v.optional(queryInt(1, MAX_SEARCH_LIMIT)),
});

/**
 * The search routes: text search (served at `/search/v2/:flock` and its alias `/global`) and
 * the person finder (`/search/v2/:flock/person`).
 *
 * @example
 * const search = searchRoutes(guards, queries); route(app, "GET", "/search/v2/:flock", search.searchContactsByText);
 */
export function searchRoutes(guards: RouteGuards, queries: RecordQueries) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    searchContactsByText: [describeSearchContactsByText(), ...guard, searchContactsByText],
    findPersonsByFields: [describeFindPersonsByFields(), ...guard, findPersonsByFields],
  } as const;

  function describeSearchContactsByText(): MiddlewareHandler {
    return documented({ tag: "search", summary: "Search contacts by text", auth: "key", query: queryParamsOf(SearchQuery, { q: "the text to look for", limit: "at most this many results" }), ok: { status: 200, description: "{q, results}", schema: "ReadModel" }, errors: [400, 403, 404] });
  }

  async function searchContactsByText(c: Context<AppEnv, "/:flock">) {
    const { q, limit } = readQuery(c, SearchQuery);
    const results = await queries.searchContacts(c.req.param("flock"), q, SEARCH_TYPES, limit ?? DEFAULT_SEARCH_LIMIT);
    return c.json({ q, results });
  }

  function describeFindPersonsByFields(): MiddlewareHandler {
    return documented({ tag: "search", summary: "Search persons by fields (the find rules), every match", auth: "key", query: queryParamsOf(FindQuery), ok: { status: 200, description: "{matched_by, results}", schema: "ReadModel" }, errors: [400, 403, 404] });
  }

  async function findPersonsByFields(c: Context<AppEnv, "/:flock/person">) {
    const found = await findMatches(queries, c, c.req.param("flock"), "person");
    return c.json({ matched_by: found.rule, results: found.matches.map((r) => searchResult(r, 0)) });
  }
}
