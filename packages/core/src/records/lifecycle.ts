/**
 * @module records/lifecycle
 * Delete (soft), restore, obfuscate and touch: each loads the record, asks the state
 * machine for the next state, and writes one new version.
 */
import { transition, type RecordOperation } from "../state/transitions.js";
import type { StoredRecord } from "../storage/types.js";
import { formatTimestamp } from "../time.js";
import { commit } from "./commit.js";
import { loadRecord } from "./guards.js";
import { obfuscatedData } from "./obfuscate.js";
import { revise, updateOf } from "./revise.js";
import type { EngineContext } from "./types.js";

/** Marks the record deleted: hidden from default lists, kept for `restore`. */
export function deleteRecord(ctx: EngineContext, flock: string, type: string, id: string): Promise<StoredRecord> {
  return _move(ctx, flock, type, id, "delete");
}

/** Returns a deleted record to lists; 409 if it is not deleted. */
export function restoreRecord(ctx: EngineContext, flock: string, type: string, id: string): Promise<StoredRecord> {
  return _move(ctx, flock, type, id, "restore");
}

/** Moves `last_updated` to now (a new version with the same data). */
export function touchRecord(ctx: EngineContext, flock: string, type: string, id: string): Promise<StoredRecord> {
  return _move(ctx, flock, type, id, "touch");
}

/**
 * Erases the personal data (see `obfuscatedData`) and every file uploaded to the record,
 * keeping the record, its id, dates, state and references for audit and reporting.
 */
export async function obfuscateRecord(ctx: EngineContext, flock: string, type: string, id: string): Promise<StoredRecord> {
  const before = await loadRecord(ctx, flock, type, id);
  const state = transition(before.state, "obfuscate");
  const after = revise(before, {
    data: obfuscatedData(type, before.data),
    state,
    now: formatTimestamp(ctx.clock.now()),
  });
  await commit(ctx, { ...updateOf(before, after), removeFilesOf: [{ flock, type, id }] });
  return after;
}

/**
 * The next version of `before` after a lifecycle operation (`delete`, `restore`, `touch`),
 * decided exactly as the engine's own operation decides it (409 when the state does not
 * allow it), for callers that commit it with other writes (a task's chunk).
 *
 * @example
 * const after = plannedMove(person, "delete", now); // state "deleted", version + 1
 */
export function plannedMove(before: StoredRecord, op: RecordOperation, now: string): StoredRecord {
  return revise(before, { state: transition(before.state, op), now });
}

// --- internal ---

async function _move(
  ctx: EngineContext,
  flock: string,
  type: string,
  id: string,
  op: RecordOperation,
): Promise<StoredRecord> {
  const before = await loadRecord(ctx, flock, type, id);
  const after = plannedMove(before, op, formatTimestamp(ctx.clock.now()));
  await commit(ctx, updateOf(before, after));
  return after;
}
