/**
 * @module records/recalc
 * Recalculation: recompute the derived values (person names, display value) of a record
 * and, with `force`, of the records that reference it, storing those that were stale.
 * Past `RECALC_REFERENCING_LIMIT` referencing records, or `MAX_LIST_ANSWER_LENGTH` of their
 * data, they are left to a `recalc` task, so the request stays short and nothing is
 * silently skipped.
 */
import { MAX_LIST_ANSWER_LENGTH } from "../query/limits.js";
import { isListAnswerTooLarge } from "../schema/list-answer.js";
import { recordUri } from "../schema/references.js";
import type { RecordWrite } from "../model/change-set.js";
import { createTask } from "../tasks/run.js";
import { formatTimestamp } from "../time.js";
import { commit } from "./commit.js";
import { loadRecord } from "./guards.js";
import { RECALC_REFERENCING_LIMIT, recalculated } from "./recalculated.js";
import { updateWrite } from "./revise.js";
import type { EngineContext } from "./types.js";

/** What a recalculation answers; `task_id` names the task queued for the records past the limit. */
export interface RecalcResult {
  status: "OK";
  force: boolean;
  task_id?: string;
}

/**
 * Recomputes the record's derived values; with `force`, also those of up to
 * `RECALC_REFERENCING_LIMIT` records referencing it, and when more reference it, queues a
 * `recalc` task over all of them (its id is `task_id`). Records whose values were already
 * right are not written; the stale ones are written together in one change set.
 */
export async function recalcRecord(
  ctx: EngineContext,
  flock: string,
  type: string,
  id: string,
  opts: { force?: boolean } = {},
): Promise<RecalcResult> {
  const force = opts.force === true;
  const target = await loadRecord(ctx, flock, type, id);
  const records = [target];
  let more = false;
  if (force) {
    // One more than the limit tells whether a task must finish the job; so does more data
    // than one answer may hold (the task then takes every referencing record, in chunks).
    try {
      const referencing = await ctx.storage.listReferencing(flock, recordUri(flock, type, id), RECALC_REFERENCING_LIMIT + 1, MAX_LIST_ANSWER_LENGTH);
      more = referencing.length > RECALC_REFERENCING_LIMIT;
      records.push(...referencing.slice(0, RECALC_REFERENCING_LIMIT).filter((r) => r.id !== target.id));
    } catch (e) {
      if (!isListAnswerTooLarge(e)) throw e;
      more = true;
    }
  }
  const now = formatTimestamp(ctx.clock.now());
  const writes: RecordWrite[] = [];
  for (const record of records) {
    const next = recalculated(record, now);
    if (next) writes.push(updateWrite(record, next));
  }
  if (writes.length) await commit(ctx, { records: writes });
  if (!more) return { status: "OK", force };
  const task = await createTask({ context: ctx }, flock, "recalc", { resource_type: type, referencing: recordUri(flock, type, id) });
  return { status: "OK", force, task_id: task.id };
}
