/**
 * @module records/create
 * Create: validate the body for the type, complete and derive the data, insert version 1.
 */
import { validateInput } from "../schema/input.js";
import { checkRecordLimits } from "../schema/record-limits.js";
import { transition } from "../state/transitions.js";
import type { StoredRecord } from "../model/record.js";
import { formatTimestamp } from "../time.js";
import { commit } from "./commit.js";
import { requireFlockAndType } from "./guards.js";
import { derive } from "./revise.js";
import type { EngineContext } from "./types.js";

/** Creates a record of `type` in `flock` from the client's fields; returns it as stored. */
export async function createRecord(
  ctx: EngineContext,
  flock: string,
  type: string,
  input: Record<string, unknown>,
): Promise<StoredRecord> {
  const [record] = await createRecords(ctx, flock, type, [input]);
  return record!;
}

/**
 * Creates several records of `type` in `flock` in one commit: every body is checked before
 * anything is written, and either all are stored (with their data events) or none.
 */
export async function createRecords(
  ctx: EngineContext,
  flock: string,
  type: string,
  inputs: readonly Record<string, unknown>[],
): Promise<StoredRecord[]> {
  await requireFlockAndType(ctx, flock, type);
  const now = formatTimestamp(ctx.clock.now());
  const records = inputs.map((input): StoredRecord => {
    const { data, displayValue } = derive(type, validateInput(type, input));
    checkRecordLimits(type, data);
    return { id: ctx.ids(), flock, type, state: transition(null, "create"), data, displayValue, created: now, lastUpdated: now, version: 1 };
  });
  if (records.length) await commit(ctx, { records: records.map((record) => ({ kind: "insert" as const, record })) });
  return records;
}
