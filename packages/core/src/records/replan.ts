/**
 * @module records/replan
 * A write whose caller named no version is the engine's to get right: when its record
 * changed between the read it was planned on and the commit (another writer won the
 * optimistic version check), it is planned again on the record as it now is, a bounded
 * number of times, instead of answering the caller a 409 for the engine's own race.
 */
import { isRecordsError } from "../errors.js";
import type { StoredRecord } from "../model/record.js";
import { loadRecord } from "./guards.js";
import type { EngineContext } from "./types.js";

/**
 * How many times one write is planned again after its record changed under it. A write loses
 * only to another commit on the same record, so this many concurrent writers of one record
 * (plus one) all get through.
 */
export const WRITE_REPLANS = 10;

/**
 * Loads the record and runs `attempt` (plan and commit) on it. A `conflict` after which
 * the stored record has another version than the one planned on runs `attempt` again on
 * the stored record, up to `WRITE_REPLANS` times; any other failure, a conflict on an
 * unchanged record (a state change truly refused) or the last attempt's conflict is
 * thrown as it is.
 *
 * @example
 * await replanned(ctx, "demo", "person", id, async (before) => commit(ctx, updateOf(before, next(before))));
 */
export async function replanned<T>(
  ctx: EngineContext,
  flock: string,
  type: string,
  id: string,
  attempt: (before: StoredRecord) => Promise<T>,
): Promise<T> {
  let before = await loadRecord(ctx, flock, type, id);
  for (let n = 0; ; n++) {
    try {
      return await attempt(before);
    } catch (e) {
      if (!isRecordsError(e) || e.code !== "conflict" || n >= WRITE_REPLANS) throw e;
      const stored = await ctx.storage.getRecord(flock, type, id);
      if (!stored || stored.flock !== flock || stored.type !== type || stored.version === before.version) throw e;
      before = stored;
    }
  }
}
