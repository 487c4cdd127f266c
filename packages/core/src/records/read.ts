/**
 * @module records/read
 * Reads: one record, a page of records, and the single-record envelope with its references
 * expanded (one `getRecords` call for all of a record's references).
 */
import { MAX_LIST_ANSWER_LENGTH } from "../query/limits.js";
import type { ListPage, ListQuery } from "../model/query.js";
import { cutDisplayValue } from "../schema/display.js";
import { toSingleEnvelope, type SingleEnvelope } from "../schema/envelope.js";
import { recordUri, referencedKeys } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";
import { noteScannedFields } from "../indexes/demand.js";
import { loadRecord, requireFlockAndType } from "./guards.js";
import type { EngineContext } from "./types.js";

/** The record in any state; 404 if absent. */
export function getRecord(ctx: EngineContext, flock: string, type: string, id: string): Promise<StoredRecord> {
  return loadRecord(ctx, flock, type, id);
}

/**
 * The page of `type` records in `flock` matching `query`, and the total. The page is read
 * only up to `MAX_LIST_ANSWER_LENGTH` of data (unless the query sets its own
 * `maxDataLength`): past it, 400 `answer too large` suggesting a page size that fits.
 */
export async function listRecords(
  ctx: EngineContext,
  flock: string,
  type: string,
  query: ListQuery,
): Promise<ListPage<StoredRecord>> {
  await requireFlockAndType(ctx, flock, type);
  const page = await ctx.storage.listRecords(flock, type, { ...query, maxDataLength: query.maxDataLength ?? MAX_LIST_ANSWER_LENGTH });
  if (page.scanned) {
    // Demand is a hint: a busy database or a lost race costs the count, never the answer.
    await noteScannedFields(ctx.storage, ctx.clock.now().getTime(), flock, type, page.scanned, ctx.indexDemand).catch(() => []);
  }
  return page;
}

/**
 * The single-record envelope, with each data field that holds the URI of an existing record
 * of the same flock (in any state) expanded to `{display_value, ref}`.
 */
export async function toSingle(ctx: EngineContext, record: StoredRecord): Promise<SingleEnvelope> {
  const keys = referencedKeys(record);
  const expanded = new Map<string, string>();
  if (keys.length) {
    // Display values alone: a record may reference hundreds of large records, whose data
    // is not needed here.
    const found = await ctx.storage.getDisplayValues(record.flock, keys);
    for (const f of found) expanded.set(recordUri(record.flock, f.type, f.id), cutDisplayValue(f.displayValue));
  }
  return toSingleEnvelope(record, expanded);
}
