/**
 * @module records/reader
 * `engine.read`: the read-only side of the record store, for callers outside core that
 * need more than `get` and `list` (walks, field values, counts, references, files). Each
 * member is the `RecordStore` or `FileStore` member of the same name, answered as stored,
 * after the checks `get` and `list` make: the flock exists and, where a type is named,
 * the flock serves it (404 otherwise). Nothing here writes.
 */
import { requireFlock, requireFlockAndType } from "./guards.js";
import type { EngineContext, RecordReader } from "./types.js";

/**
 * The reader over `ctx.storage`.
 *
 * @example
 * const page = await engine.read.scanRecords("demo", "person", { filters: [], mode: "AND", states: ["updated"] }, null, 100);
 */
export function createRecordReader(ctx: EngineContext): RecordReader {
  const s = ctx.storage;
  const typed = (flock: string, type: string) => requireFlockAndType(ctx, flock, type);
  const flockOnly = (flock: string) => requireFlock(ctx, flock);
  return {
    getRecord: async (flock, type, id) => (await typed(flock, type), s.getRecord(flock, type, id)),
    getRecords: async (flock, keys) => (keys.length === 0 ? [] : (await flockOnly(flock), s.getRecords(flock, [...keys]))),
    getDisplayValues: async (flock, keys) => (keys.length === 0 ? [] : (await flockOnly(flock), s.getDisplayValues(flock, [...keys]))),
    listRecords: async (flock, type, query) => (await typed(flock, type), s.listRecords(flock, type, query)),
    listReferencing: async (flock, uri, limit, max) => (await flockOnly(flock), s.listReferencing(flock, uri, limit, max)),
    scanRecords: async (flock, type, query, after, limit, max) => (await typed(flock, type), s.scanRecords(flock, type, query, after, limit, max)),
    listFieldValues: async (flock, type, query, fields, limit) => (await typed(flock, type), s.listFieldValues(flock, type, query, fields, limit)),
    countFieldValues: async (flock, type, query, fields, cuts) => (await typed(flock, type), s.countFieldValues(flock, type, query, fields, cuts)),
    listTicketStock: async (flock, bookings) => (bookings.length === 0 ? [] : (await flockOnly(flock), s.listTicketStock(flock, bookings))),
    summarizeTypes: async (flock) => (await flockOnly(flock), s.summarizeTypes(flock)),
    getFile: async (flock, id) => (await flockOnly(flock), s.getFile(flock, id)),
  };
}
