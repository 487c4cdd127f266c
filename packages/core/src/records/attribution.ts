/**
 * @module records/attribution
 * An engine context acting for someone: the same storage, clock, ids and triggers, with
 * writes that log who made them (see storage/attributed).
 */
import type { Attribution } from "../model/attribution.js";
import { attributedStorage } from "../storage/attributed.js";
import type { EngineContext } from "./types.js";

/**
 * `ctx` acting for `attribution` (replacing any it had).
 *
 * @example
 * await commit(attributedContext(ctx, systemAttribution("tasks")), changes);
 */
export function attributedContext(ctx: EngineContext, attribution: Attribution): EngineContext {
  return { ...ctx, attribution, storage: attributedStorage(ctx.storage, attribution) };
}
