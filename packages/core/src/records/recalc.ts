/**
 * @module records/recalc
 * Recalculation: recompute the derived values (person names, display value) of a record
 * and, with `force`, of the records that reference it, storing those that were stale.
 */
import { recordUri } from "../schema/references.js";
import { transition } from "../state/transitions.js";
import type { RecordWrite, StoredRecord } from "../storage/types.js";
import { formatTimestamp } from "../time.js";
import { commit } from "./commit.js";
import { loadRecord } from "./guards.js";
import { derive, revise, sameJson } from "./revise.js";
import type { EngineContext } from "./types.js";

/** Most referencing records one forced recalculation visits. */
export const RECALC_REFERENCING_LIMIT = 1000;

/**
 * Recomputes the record's derived values; with `force`, also those of up to
 * `RECALC_REFERENCING_LIMIT` records referencing it. Records whose values were already
 * right are not written; the stale ones are written together in one change set.
 */
export async function recalcRecord(
  ctx: EngineContext,
  flock: string,
  type: string,
  id: string,
  opts: { force?: boolean } = {},
): Promise<{ status: "OK"; force: boolean }> {
  const force = opts.force === true;
  const target = await loadRecord(ctx, flock, type, id);
  const records = [target];
  if (force) {
    const referencing = await ctx.storage.listReferencing(flock, recordUri(flock, type, id), RECALC_REFERENCING_LIMIT);
    records.push(...referencing.filter((r) => r.id !== target.id));
  }
  const now = formatTimestamp(ctx.clock.now());
  const writes: RecordWrite[] = [];
  for (const record of records) {
    const state = transition(record.state, "recalc");
    if (!_isStale(record)) continue;
    writes.push({ kind: "update", record: revise(record, { state, now }), expectedVersion: record.version, before: record });
  }
  if (writes.length) await commit(ctx, { records: writes });
  return { status: "OK", force };
}

// --- internal ---

function _isStale(record: StoredRecord): boolean {
  const derived = derive(record.type, record.data);
  const missingField = Object.keys(derived.data).some((k) => !(k in record.data));
  return missingField || derived.displayValue !== record.displayValue || !sameJson(derived.data, record.data);
}
