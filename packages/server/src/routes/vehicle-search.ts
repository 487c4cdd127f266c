/**
 * @module routes/vehicle-search
 * The hosted vehicle search (spec v2-gateway P3): `GET /search/v2/{flock}/car` with
 * `registration_number`, `engine_number` or `identifying_number`. Served when the flock
 * serves a `vehicle` type (config `resourceTypes`), else 404 `unknown resource type`. The
 * first parameter given, in that order, is matched against the same-named field of every
 * non-deleted vehicle, ignoring case, spaces and dashes. Mount under `/search/v2`.
 */
import { badRequest, notFound } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import { liveRecords } from "../gateway/live-records.js";
import { readGatewayParams } from "../gateway/params.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/** The parameters, in the order they are tried. */
const VEHICLE_KEYS = ["registration_number", "engine_number", "identifying_number"] as const;

/**
 * A vehicle number as compared: lower-case, without spaces or dashes.
 *
 * @example
 * vehicleNumber("AB12 cde") === vehicleNumber("ab12-CDE") // true
 */
export function vehicleNumber(value: string): string {
  return value.toLowerCase().replace(/[\s\-\u2010-\u2015]+/g, "");
}

/**
 * Routes `GET /:flock/car`; mount under `/search/v2`.
 *
 * @example
 * const routes = vehicleSearchRoutes(engine, guards); route(app, "GET", "/search/v2/:flock/car", routes.getCar);
 */
export function vehicleSearchRoutes(engine: RouteEngine, guards: RouteGuards) {

  return {
    getCar: [describeGetCar(), guards.requireKey(), guards.requireFlock, getCar],
  } as const;

  function describeGetCar(): MiddlewareHandler {
    return documented({
      tag: "search",
      summary: "Vehicles by registration, engine or identifying number",
      description: "The first parameter given, in the order listed, matched against the same-named field of non-deleted vehicle records, ignoring case, spaces and dashes. At least one parameter. 404 unknown resource type when the flock serves no vehicle type.",
      auth: "key",
      query: VEHICLE_KEYS.map((k) => queryParam(k, `match the vehicle's ${k}`)),
      ok: { status: 200, description: "{matched_by, count, results: [single-record shape]}", schema: "VehicleSearch" },
      errors: [400, 403, 404],
    });
  }

  async function getCar(c: Context<AppEnv, "/:flock/car">) {
    const flock = c.req.param("flock")!;
    if (!engine.context.typesOf(flock).has(_TYPE)) throw notFound("unknown resource type", `flock ${flock} serves no ${_TYPE} records (config resourceTypes)`);
    const params = await readGatewayParams(c);
    const key = VEHICLE_KEYS.find((k) => vehicleNumber(params.get(k) ?? "") !== "");
    if (!key) throw badRequest("missing search", `send one of ${VEHICLE_KEYS.join(", ")}`);
    const wanted = vehicleNumber(params.get(key)!);
    const matches = (await liveRecords(engine, flock, _TYPE)).filter((r) => {
      const value = r.data[key];
      return (typeof value === "string" || typeof value === "number") && vehicleNumber(String(value)) === wanted;
    });
    const results = await Promise.all(matches.map((r) => engine.toSingle(r)));
    return c.json({ matched_by: key, count: results.length, results });
  }
}

// --- internal ---

const _TYPE = "vehicle";
