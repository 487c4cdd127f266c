/**
 * @module records/recalculated
 * A record with its derived values recomputed: what the recalc operation (records/recalc)
 * and the recalc task (tasks/recalc-kind) share. It sits below both, since the operation
 * queues the task for the records past its limit.
 */
import type { StoredRecord } from "../model/record.js";
import { transition } from "../state/transitions.js";
import { derive, sameJson } from "./revise.js";

/** Most referencing records one forced recalculation visits. */
export const RECALC_REFERENCING_LIMIT = 1000;

/**
 * The record with its derived values (display value, person's generated names and missing
 * fields) recomputed, or undefined when none was stale. Derives once; used by the recalc
 * operation and the recalc task alike.
 */
export function recalculated(record: StoredRecord, now: string): StoredRecord | undefined {
  const derived = derive(record.type, record.data);
  const stale =
    derived.displayValue !== record.displayValue ||
    !sameJson(derived.data, record.data) ||
    Object.keys(derived.data).some((k) => !(k in record.data));
  if (!stale) return undefined;
  return {
    ...record,
    data: derived.data,
    displayValue: derived.displayValue,
    state: transition(record.state, "recalc"),
    lastUpdated: now,
    version: record.version + 1,
  };
}
