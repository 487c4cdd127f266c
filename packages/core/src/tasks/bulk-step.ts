/**
 * @module tasks/bulk-step
 * One chunk of a bulk action: the next matches of its query, and for each the update the
 * action implies, decided exactly as `PUT` decides one (validate, revise, keep only real
 * changes), so a tag change is an update like any other and emits the same events.
 */
import { isRecordsError } from "../errors.js";
import type { EngineContext } from "../records/types.js";
import { updateWrite } from "../records/revise.js";
import { planUpdate } from "../records/update.js";
import { recordUri } from "../schema/references.js";
import type { RecordWrite } from "../model/change-set.js";
import type { StoredRecord } from "../model/record.js";
import { formatTimestamp } from "../time.js";
import type { BulkParams } from "./bulk-params.js";
import { latestMemberships } from "./last-membership.js";
import { parseLookup } from "./lookup-query.js";
import { TASK_CHUNK_DATA_LENGTH, type TaskCounts, type TaskStep, type TaskView } from "./types.js";

/** What the action does to one record. */
type RecordOutcome = { write: RecordWrite } | { unchanged: true } | { error: string };

/**
 * Decides one chunk of the bulk action `task` (its params are `BulkParams`).
 *
 * @example
 * const step = await bulkStep(ctx, taskView(record), 500); // { writes, cursor, done, counts }
 */
export async function bulkStep(ctx: EngineContext, task: TaskView, limit: number): Promise<TaskStep> {
  const p = task.params as unknown as BulkParams;
  const query = parseLookup(p.query, p.resource_type, task.requestedAt);
  const page = await ctx.storage.scanRecords(task.flock, p.resource_type, query, task.cursor, limit, TASK_CHUNK_DATA_LENGTH);
  const now = formatTimestamp(ctx.clock.now());
  const counts: TaskCounts = { matched: page.records.length, changed: 0, unchanged: 0, errors: 0 };
  const writes: RecordWrite[] = [];
  const errors: string[] = [];
  const count = (o: RecordOutcome) => {
    if ("write" in o) {
      writes.push(o.write);
      counts.changed += 1;
    } else if ("error" in o) {
      errors.push(o.error);
      counts.errors += 1;
    } else counts.unchanged += 1;
  };

  if (p.action === "set-single-field-on-last-membership") {
    const latest = await latestMemberships(ctx, task.flock, page.records);
    const written = new Set<string>();
    for (const person of page.records) {
      const uri = recordUri(person.flock, person.type, person.id);
      const membership = latest.get(uri);
      if (!membership) count({ error: `${uri}: no membership` });
      else if (written.has(membership.id)) count({ unchanged: true });
      else {
        const o = decideUpdate(membership, { [p.field]: p.value }, now);
        if ("write" in o) written.add(membership.id);
        count(o);
      }
    }
  } else {
    for (const record of page.records) count(decideUpdate(record, _patch(p, record), now));
  }
  return { writes, cursor: page.cursor, done: page.cursor === null, counts, errors };
}

/**
 * The update of `record` by `patch`, as `PUT` would make it: validated for the type,
 * laid over the data, derived values recomputed; `unchanged` when nothing would change,
 * an error line when the patch or the record's state does not allow it.
 */
function decideUpdate(record: StoredRecord, patch: Record<string, unknown> | undefined, now: string): RecordOutcome {
  if (patch === undefined) return { unchanged: true };
  try {
    const { next, changed } = planUpdate(record, patch, now);
    if (Object.keys(changed).length === 0) return { unchanged: true };
    return { write: updateWrite(record, next) };
  } catch (e) {
    if (!isRecordsError(e)) throw e;
    return { error: `${recordUri(record.flock, record.type, record.id)}: ${e.detail}` };
  }
}

// --- internal ---

/** The patch of a direct action on `record`; undefined when it is already as asked. */
function _patch(p: BulkParams, record: StoredRecord): Record<string, unknown> | undefined {
  if (p.action === "set-single-field") return { [p.field]: p.value };
  const tag = p.value as string;
  const tags = _tags(record.data.tags);
  if (p.action === "add_tag") return tags.includes(tag) ? undefined : { tags: [...tags, tag] };
  return tags.includes(tag) ? { tags: tags.filter((t) => t !== tag) } : undefined;
}

/** The tags of a record as a list (a lone string on an open type counts as one tag). */
function _tags(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === "string");
  return typeof value === "string" && value !== "" ? [value] : [];
}
