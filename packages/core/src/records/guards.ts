/**
 * @module records/guards
 * The checks every record operation makes before it decides anything: the flock exists,
 * the type is served, the id has the shape of a record id and names a record of that flock
 * and type. Each failure is a 404 naming what was not found.
 */
import { notFound } from "../errors.js";
import { isRecordId } from "../ids.js";
import { assertServedType } from "../schema/resource-types.js";
import type { StoredRecord } from "../model/record.js";
import type { EngineContext } from "./types.js";

/** Throws 404 unless the flock exists. */
export async function requireFlock(ctx: EngineContext, flock: string): Promise<void> {
  if (!(await ctx.storage.getFlock(flock))) throw notFound("unknown flock", `flock '${flock}' does not exist`);
}

/** Throws 404 unless the flock exists and serves `type`. */
export async function requireFlockAndType(ctx: EngineContext, flock: string, type: string): Promise<void> {
  await requireFlock(ctx, flock);
  assertServedType(ctx.typesOf(flock), type);
}

/**
 * The record `id` of `type` in `flock`, in any state. An id of the wrong shape is a 404 too:
 * no record can have it.
 */
export async function loadRecord(ctx: EngineContext, flock: string, type: string, id: string): Promise<StoredRecord> {
  await requireFlockAndType(ctx, flock, type);
  if (!isRecordId(id)) {
    throw notFound("record not found", `'${id}' is not a record id (24 lower-case hexadecimal characters)`);
  }
  const record = await ctx.storage.getRecord(flock, type, id);
  if (!record || record.flock !== flock || record.type !== type) {
    throw notFound("record not found", `no ${type} record with id '${id}' in flock '${flock}'`);
  }
  return record;
}
