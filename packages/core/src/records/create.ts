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
  await requireFlockAndType(ctx, flock, type);
  const fields = validateInput(type, input);
  const state = transition(null, "create");
  const now = formatTimestamp(ctx.clock.now());
  const { data, displayValue } = derive(type, fields);
  checkRecordLimits(type, data);
  const record: StoredRecord = {
    id: ctx.ids(),
    flock,
    type,
    state,
    data,
    displayValue,
    created: now,
    lastUpdated: now,
    version: 1,
  };
  await commit(ctx, { records: [{ kind: "insert", record }] });
  return record;
}
