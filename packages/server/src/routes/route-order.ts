/**
 * @module routes/route-order
 * Route order that does not matter. Hono runs every route matching a request in the order
 * they were registered, so `/:flock/:type` registered before `/:flock/bulk_action` would take
 * `bulk_action` for a resource type. The areas bind their routes onto a staging app in any
 * order; `mountBySpecificity` then registers them on the real app most specific first, as
 * Go's ServeMux (PocketBase's router) picks the most specific pattern: segment by segment, a
 * fixed word before a `:param`, a `:param` before a `*`, and a path before its own `/*`.
 * Routes of equal rank keep their order (a `/*` middleware stays before the handler it wraps).
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";

/**
 * Registers the routes of `staged` on `app`, the most specific first.
 *
 * @example
 * const staged = new Hono<AppEnv>({ strict: false });
 * bindRecords(staged, deps); bindBulk(staged, deps); // any order
 * mountBySpecificity(app, staged);
 */
export function mountBySpecificity(app: Hono<AppEnv>, staged: Hono<AppEnv>): void {
  const ranked = staged.routes.map((route, index) => ({ route, index, ranks: pathRanks(route.path) }));
  ranked.sort((a, b) => compareRanks(a.ranks, b.ranks) || a.index - b.index);
  for (const { route } of ranked) app.on(route.method, route.path, route.handler);
}

/** The rank of each segment of a route path: 0 a fixed word, 1 a `:param`, 2 a `*`. */
export function pathRanks(path: string): number[] {
  return path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => (s === "*" ? 2 : s.startsWith(":") ? 1 : 0));
}

/** Negative when `a` is the more specific: the first differing segment decides; a path before its longer forms. */
export function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}
