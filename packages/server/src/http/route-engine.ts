/**
 * @module http/route-engine
 * The engine as routes and the gateway see it: every operation, `engine.read`, the clock,
 * ids and served types, but no `Storage` in its context. A route reads and writes records
 * only through the engine's members; the few record-free roles it needs (accounts, flocks,
 * limit rows) come beside it in `RouteDeps`. A `RecordEngine` is a `RouteEngine`, so this
 * costs nothing at run time: it is what the type checker lets a route reach.
 */
import type { Attribution, EngineContext, RecordEngine } from "@records-service/core";

/** The engine's context without its Storage. */
type RouteContext = Omit<EngineContext, "storage">;

/** A `RecordEngine` whose context (and that of the engines it acts as) holds no Storage. */
export interface RouteEngine extends Omit<RecordEngine, "context" | "withAttribution"> {
  readonly context: RouteContext;
  withAttribution(attribution: Attribution): RouteEngine;
}
