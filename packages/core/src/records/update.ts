/**
 * @module records/update
 * Partial update: the patch is validated like a create body, laid over the stored data, the
 * derived fields recomputed, and only what changed is written and reported.
 */
import { validateInput } from "../schema/input.js";
import { checkRecordLimits } from "../schema/record-limits.js";
import { transition } from "../state/transitions.js";
import { updateTask } from "../tasks/task-update.js";
import { TASK_TYPE } from "../tasks/types.js";
import { formatTimestamp } from "../time.js";
import { commit } from "./commit.js";
import { loadRecord } from "./guards.js";
import { replanned } from "./replan.js";
import { changedFields, revise, updateOf } from "./revise.js";
import type { StoredRecord } from "../model/record.js";
import { conflict } from "../errors.js";
import type { EngineContext, UpdateOptions, UpdateResult } from "./types.js";

/**
 * Applies `patch` to the record. `changed` holds every data field whose value changed,
 * system-generated ones included. A patch that changes nothing writes nothing (the version
 * and `last_updated` stay; `touch` is the way to bump them). With `opts.expectedVersion`
 * (the caller named a version, `If-Match`) a record at another version is refused (409)
 * before anything is decided, and a write racing in after the read is refused by the
 * commit's own version check. Without it, a record changed by another writer meanwhile is
 * read again and the patch laid over it (`replanned`): a 409 only ever answers a version
 * the caller sent.
 */
export async function updateRecord(
  ctx: EngineContext,
  flock: string,
  type: string,
  id: string,
  patch: Record<string, unknown>,
  opts: UpdateOptions = {},
): Promise<UpdateResult> {
  if (type === TASK_TYPE) return updateTask(ctx, flock, id, patch); // tasks: cancel only
  const apply = async (before: StoredRecord) => {
    const { next, changed } = planUpdate(before, patch, formatTimestamp(ctx.clock.now()));
    if (Object.keys(changed).length === 0) return { record: before, changed };
    await commit(ctx, updateOf(before, next));
    return { record: next, changed };
  };
  if (opts.expectedVersion === undefined) return replanned(ctx, flock, type, id, apply);
  const before = await loadRecord(ctx, flock, type, id);
  if (opts.expectedVersion !== before.version) {
    throw conflict(
      "version conflict",
      `record ${id} is at version ${before.version}, not ${opts.expectedVersion}: it was changed since it was read; read it again and retry`,
    );
  }
  return apply(before);
}

/**
 * The pure decision of an update, shared by `PUT`, uploads and bulk actions so all change a
 * record exactly alike: the state must allow it, the patch is validated for the type and
 * laid over the data, derived values are recomputed, the record bounds are checked. Throws
 * the 400/409 a bad patch or state earns.
 */
export function planUpdate(
  before: StoredRecord,
  patch: Record<string, unknown>,
  now: string,
): { next: StoredRecord; changed: Record<string, unknown> } {
  const state = transition(before.state, "update");
  const fields = validateInput(before.type, patch, before.data);
  const next = revise(before, { data: { ...before.data, ...fields }, state, now });
  checkRecordLimits(before.type, next.data, before.data);
  return { next, changed: changedFields(before.data, next.data) };
}
