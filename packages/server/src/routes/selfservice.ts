/**
 * @module routes/selfservice
 * A member's own reservations (spec, "Self-service reservations"; contract, "Self-service
 * users"): list, get and cancel, for a self-service session token. The caller's person is
 * found from the username (auth/caller-person); a reservation whose `buyer_ref` is anyone
 * else's is a 404, exactly as an absent one. Mounted under both `/api/v2/selfservice` and
 * `/selfservice/v2`.
 */
import { isRecordsError, notFound, parseListQuery, parseRecordUri, recordUri, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { findCallerPerson } from "../auth/caller-person.js";
import { accountEmail } from "../auth/usernames.js";
import {
  cancellationPatch,
  isOwnReservation,
  reservationReferences,
  toReservationList,
  toSingleReservation,
} from "../derived/selfservice-reservation.js";
import type { AppEnv } from "../http/env.js";
import { actingEngine } from "../http/acting.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/** Reservations read per page when listing a member's reservations (all pages are read). */
const LIST_PAGE_SIZE = 500;

/**
 * Routes `GET /:flock/reservations`, `GET /:flock/reservation/:id` and
 * `DELETE /:flock/reservation/:id?cancellation_reason=...`.
 *
 * @example
 * const routes = selfServiceRoutes(engine, guards); route(app, "GET", "/api/v2/selfservice/:flock/reservations", routes.getReservations);
 * const routes = selfServiceRoutes(engine, guards); route(app, "GET", "/selfservice/v2/:flock/reservations", routes.getReservations);
 */
export function selfServiceRoutes(engine: RouteEngine, guards: RouteGuards) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(["self-service"]), guards.requireFlock] as const;

  return {
    getReservations: [describeGetReservations(), ...guard, getReservations],
    getReservationId: [describeGetReservationId(), ...guard, getReservationId],
    deleteReservationId: [describeDeleteReservationId(), ...guard, deleteReservationId],
  } as const;

  function describeGetReservations(): MiddlewareHandler {
    return documented({ tag: "selfservice", summary: "The caller's reservations", auth: "selfService", ok: { status: 200, description: "the reservations, list form", schema: "ReservationList" }, errors: [403, 404] });
  }

  async function getReservations(c: Context<AppEnv, "/:flock/reservations">) {
    const { flock, person } = await _caller(engine, c);
    const uri = recordUri(flock, "person", person.id);
    return c.json(toReservationList(uri, await _reservationsOf(engine, flock, uri)));
  }

  function describeGetReservationId(): MiddlewareHandler {
    return documented({ tag: "selfservice", summary: "One of the caller's reservations", auth: "selfService", ok: { status: 200, description: "the reservation, single form", schema: "Reservation" }, errors: [403, 404] });
  }

  async function getReservationId(c: Context<AppEnv, "/:flock/reservation/:id">) {
    const { flock, person } = await _caller(engine, c);
    const record = await _ownReservation(engine, flock, c.req.param("id"), person);
    return c.json(await _single(engine, record));
  }

  function describeDeleteReservationId(): MiddlewareHandler {
    return documented({
      tag: "selfservice",
      summary: "Cancel one of the caller's reservations",
      auth: "selfService",
      query: [queryParam("cancellation_reason", "why, kept on the reservation")],
      ok: { status: 200, description: "the reservation, status cancelled", schema: "Reservation" },
      errors: [400, 403, 404, 409],
    });
  }

  async function deleteReservationId(c: Context<AppEnv, "/:flock/reservation/:id">) {
    const { flock, person } = await _caller(engine, c);
    const record = await _ownReservation(engine, flock, c.req.param("id"), person);
    const patch = cancellationPatch(record, c.req.query("cancellation_reason"));
    const { record: cancelled } = await actingEngine(c, engine).update(flock, "reservation", record.id, patch);
    return c.json(await _single(engine, cancelled));
  }
}

// --- internal ---

async function _caller(engine: RouteEngine, c: Context<AppEnv>): Promise<{ flock: string; person: StoredRecord }> {
  const flock = c.req.param("flock")!;
  const email = accountEmail(c.get("user").username);
  const person = await findCallerPerson(engine, flock, email);
  if (!person) {
    throw notFound("person not found", `no person in this flock has the email address ${JSON.stringify(email)}`);
  }
  return { flock, person };
}

async function _ownReservation(engine: RouteEngine, flock: string, id: string, person: StoredRecord): Promise<StoredRecord> {
  const missing = () => notFound("reservation not found", `you have no reservation ${JSON.stringify(id.slice(0, 80))}`);
  let record: StoredRecord;
  try {
    record = await engine.get(flock, "reservation", id);
  } catch (e) {
    throw isRecordsError(e) && e.code === "not_found" ? missing() : e;
  }
  if (!isOwnReservation(record, recordUri(flock, "person", person.id))) throw missing();
  return record;
}

/** Every non-deleted reservation whose `buyer_ref` is `personUri` (written with or without the final slash). */
async function _reservationsOf(engine: RouteEngine, flock: string, personUri: string): Promise<StoredRecord[]> {
  const now = engine.context.clock.now();
  const out: StoredRecord[] = [];
  for (let page = 1; ; page++) {
    const params: [string, string][] = [
      ["buyer_ref__or", personUri],
      ["buyer_ref__or", personUri.replace(/\/$/, "")],
      ["page", String(page)],
      ["page_size", String(LIST_PAGE_SIZE)],
    ];
    const result = await engine.list(flock, "reservation", parseListQuery(params, { surface: "v2", now }));
    out.push(...result.records);
    if (page * LIST_PAGE_SIZE >= result.total || result.records.length === 0) return out;
  }
}

/** The single form, with the display values of its references (records in any state). */
async function _single(engine: RouteEngine, record: StoredRecord) {
  const keys = reservationReferences(record)
    .map(parseRecordUri)
    .filter((u) => u !== undefined && u.flock === record.flock)
    .map((u) => ({ type: u!.type, id: u!.id }));
  const found = await engine.read.getRecords(record.flock, keys);
  const names = new Map(found.map((r) => [recordUri(r.flock, r.type, r.id), r.displayValue]));
  return toSingleReservation(record, (uri) => names.get(uri.endsWith("/") ? uri : `${uri}/`));
}
