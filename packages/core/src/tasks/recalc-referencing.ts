/**
 * @module tasks/recalc-referencing
 * The `recalc` task's walk over every record referencing one record (`referencing` set):
 * what a forced `POST .../recalc/` queues when the record has more referencing records
 * than it recomputes at once. `Storage.listReferencing` has no cursor, so the walk scans
 * the flock type by type (`scanRecords`, any state; the types `keepsReferences` names) and
 * keeps the records whose data holds the URI, as a field value or as a list entry's value
 * part: the records `listReferencing` would list.
 */
import { badRequest } from "../errors.js";
import type { EngineContext } from "../records/types.js";
import { holdsReference, keepsReferences, parseRecordUri } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";
import type { ScanQuery } from "../storage/record-store.js";
import { TASK_CHUNK_DATA_LENGTH, type TaskView } from "./types.js";

/**
 * The normalized `referencing` parameter: a record URI of `flock` naming a record that
 * exists. Throws 400 otherwise.
 */
export async function prepareReferencing(ctx: EngineContext, flock: string, raw: unknown): Promise<string> {
  const uri = typeof raw === "string" ? parseRecordUri(raw) : undefined;
  if (!uri || uri.flock !== flock) {
    throw badRequest("invalid task parameters", `referencing must be a record URI of flock ${JSON.stringify(flock)} (/${flock}/{type}/{id}/)`);
  }
  if (!(await ctx.storage.getRecord(flock, uri.type, uri.id))) {
    throw badRequest("invalid task parameters", `referencing: there is no record ${raw as string} in flock ${JSON.stringify(flock)}`);
  }
  return raw as string;
}

/**
 * The next records (about `limit`) after `task.cursor` that reference `uri`, and the
 * cursor after them (null once every type has been scanned).
 */
export async function nextReferencing(
  ctx: EngineContext,
  task: TaskView,
  uri: string,
  limit: number,
): Promise<{ records: StoredRecord[]; cursor: string | null }> {
  // The types whose records reference (no data event does: the largest collection is skipped).
  const types = (await ctx.storage.summarizeTypes(task.flock)).map((t) => t.name).filter(keepsReferences).sort();
  let at = _readCursor(task.cursor);
  let index = at ? types.findIndex((t) => t >= at!.type) : 0;
  if (index < 0) return { records: [], cursor: null };
  const type = types[index]!;
  const after = at && at.type === type ? at.after : null;
  const page = await ctx.storage.scanRecords(task.flock, type, _ALL, after, limit, TASK_CHUNK_DATA_LENGTH);
  const records = page.records.filter((r) => holdsReference(r.data, uri));
  if (page.cursor !== null) return { records, cursor: JSON.stringify({ type, after: page.cursor }) };
  index += 1;
  at = index < types.length ? { type: types[index]!, after: null } : undefined;
  return { records, cursor: at ? JSON.stringify(at) : null };
}

// --- internal ---

const _ALL: ScanQuery = { filters: [], mode: "AND", states: ["updated", "deleted"] };

function _readCursor(cursor: string | null): { type: string; after: string | null } | undefined {
  if (cursor === null) return undefined;
  try {
    const c = JSON.parse(cursor) as { type?: unknown; after?: unknown };
    if (typeof c.type === "string" && (typeof c.after === "string" || c.after === null)) return { type: c.type, after: c.after };
  } catch {
    // falls through to the 400 below
  }
  throw badRequest("invalid task cursor", "the task's cursor is not one a recalc walk wrote");
}

