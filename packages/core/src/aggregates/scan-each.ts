/**
 * @module aggregates/scan-each
 * Visits every record of a type matching a query, a bounded step at a time through
 * `Storage.scanRecords`, up to `MAX_AGGREGATE_RECORDS`: the aggregates of one request
 * never walk an unbounded number of records.
 */
import { badRequest, type RecordsError } from "../errors.js";
import { requireFlockAndType } from "../records/guards.js";
import type { EngineContext } from "../records/types.js";
import type { StoredRecord } from "../model/record.js";
import type { ScanQuery } from "../storage/record-store.js";

/** The most records one group-by, distinct or look-up request may read (or count). */
export const MAX_AGGREGATE_RECORDS = 100_000;
/** Records read per step (and the data one step may hold, as for a list page). */
const STEP = 1000;
const STEP_DATA_LENGTH = 4 * 1_048_576;

/**
 * Calls `visit` with each matching record in insertion order; `visit` returns false to stop
 * early. Past `MAX_AGGREGATE_RECORDS` matches: 400 asking for narrower filters.
 *
 * @example
 * await scanEach(ctx, "demo", "person", query, (r) => { n += 1; return true; });
 */
export async function scanEach(
  ctx: EngineContext,
  flock: string,
  type: string,
  query: ScanQuery,
  visit: (record: StoredRecord) => boolean,
): Promise<void> {
  await requireFlockAndType(ctx, flock, type);
  let after: string | null = null;
  let seen = 0;
  do {
    const step = await ctx.storage.scanRecords(flock, type, query, after, STEP, STEP_DATA_LENGTH);
    for (const r of step.records) {
      if (++seen > MAX_AGGREGATE_RECORDS) throw tooManyRecords(type);
      if (!visit(r)) return;
    }
    after = step.cursor;
  } while (after !== null);
}

/** The 400 of an aggregate over more than `MAX_AGGREGATE_RECORDS` matches. */
export function tooManyRecords(type: string): RecordsError {
  return badRequest("too many records", `more than ${MAX_AGGREGATE_RECORDS} ${type} records match; narrow the request with the list filters`);
}
