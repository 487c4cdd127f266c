/**
 * @module gateway/records
 * Reading the record a gateway path names (spec v2-gateway section 0, "records"): a
 * deleted `{uid}` is a 404 exactly like an unknown one, and so is an id of another type (a
 * person's id on a booking path) or one that is not a record id at all.
 */
import { isRecordsError, notFound, type StoredRecord } from "@records-service/core";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * The non-deleted `type` record `id` of `flock`; 404 `not found` naming the type otherwise.
 * Reads through the engine, so an unknown flock or a type the flock does not serve is its
 * usual 404.
 *
 * @example
 * const booking = await liveRecord(engine, "demo", "booking", c.req.param("uid"));
 */
export async function liveRecord(engine: RouteEngine, flock: string, type: string, id: string): Promise<StoredRecord> {
  let record: StoredRecord | undefined;
  try {
    record = await engine.get(flock, type, id);
  } catch (e) {
    // The engine names an unknown flock or type before it looks for the record: those keep
    // their own 404, and only a record it looked for and did not find is the gateway's.
    if (!isRecordsError(e) || e.code !== "not_found" || e.message !== RECORD_NOT_FOUND) throw e;
  }
  if (!record || record.state === "deleted") throw notFound("not found", `no ${type} ${JSON.stringify(id.slice(0, 60))} in flock ${flock}`);
  return record;
}

// --- internal ---

/** The title of `engine.get`'s 404 for a record its (known) flock and type do not hold. */
const RECORD_NOT_FOUND = "record not found";
