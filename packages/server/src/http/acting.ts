/**
 * @module http/acting
 * Who a request writes for: the authenticated account (a member account for a self-service
 * token) and the request's APPLICATION label, as core's `Attribution`; and the engine acting
 * for them, through which every write route writes, so the change log records both.
 */
import type { Attribution, RecordEngine, UserRow } from "@records-service/core";
import type { Context } from "hono";
import type { AppEnv } from "./env.js";

/**
 * The attribution of `c`'s writes. Read after authentication (before it, the actor is null).
 *
 * @example
 * requestAttribution(c) // { actor: "ada@example.org", application: "Acme/Sync/2" }
 */
function requestAttribution(c: Context<AppEnv>): Attribution {
  const user = c.get("user") as UserRow | undefined;
  return { actor: user?.username ?? null, application: c.get("application") ?? null };
}

/**
 * `engine`, acting for the caller of `c`.
 *
 * @example
 * await actingEngine(c, engine).update(flock, type, id, patch);
 */
export function actingEngine(c: Context<AppEnv>, engine: RecordEngine): RecordEngine {
  return engine.withAttribution(requestAttribution(c));
}
