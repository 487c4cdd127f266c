/**
 * @module middleware/fresh-reads
 * Read-your-writes across processes: before a request can meet any cached answer (keys,
 * users, flocks, single-record responses, counts), the storage's change generation is
 * brought up to date with every commit acknowledged so far by any process sharing the
 * database (`Storage.syncChanges`: SQLite's data version, PostgreSQL's snapshot). One
 * cheap check per request; no time window. Liveness probes read nothing cached and must
 * answer while the database is down, so they skip it.
 */
import type { Storage } from "@records-service/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";

/**
 * The middleware; mount it before every route that reads.
 *
 * @example
 * app.use(createFreshReads(storage));
 */
export function createFreshReads(storage: Storage): MiddlewareHandler<AppEnv> {
  return async function freshReads(c, next) {
    if (!_PROBES.test(c.req.path)) await storage.syncChanges();
    return next();
  };
}

// --- internal ---

/** `ping` and `health` answer without touching any cache. */
const _PROBES = /^\/api\/v1\/(ping|health)\/?$/;
