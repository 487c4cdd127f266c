/**
 * @module gateway/records
 * Reading the record a gateway path names (spec v2-gateway section 0, "records"): a
 * deleted `{uid}` is a 404 exactly like an unknown one, and so is an id of another type (a
 * person's id on a booking path) or one that is not a record id at all.
 */
import { notFound, type RecordEngine, type StoredRecord } from "@records-service/core";

/**
 * The non-deleted `type` record `id` of `flock`; 404 `not found` naming the type otherwise.
 * Reads through the engine, so an unknown flock or a type the flock does not serve is its
 * usual 404.
 *
 * @example
 * const booking = await liveRecord(engine, "demo", "booking", c.req.param("uid"));
 */
export async function liveRecord(engine: RecordEngine, flock: string, type: string, id: string): Promise<StoredRecord> {
  let record: StoredRecord | undefined;
  try {
    record = await engine.get(flock, type, id);
  } catch (e) {
    if ((e as { code?: string }).code !== "not_found" || !(await _typeServed(engine, flock, type))) throw e;
  }
  if (!record || record.state === "deleted") throw notFound("not found", `no ${type} ${JSON.stringify(id.slice(0, 60))} in flock ${flock}`);
  return record;
}

// --- internal ---

async function _typeServed(engine: RecordEngine, flock: string, type: string): Promise<boolean> {
  return engine.context.typesOf(flock).has(type) && (await engine.context.storage.getFlock(flock)) !== undefined;
}
