/**
 * @module state/transitions
 * The record state machine as data. Every record operation asks `transition` for the next
 * state; a pair that has no row is a 409 naming the operation and the state.
 */
import { conflict } from "../errors.js";
import type { RecordState } from "../model/query.js";

/** Operations that move (or keep) a record's state. */
export type RecordOperation =
  | "create"
  | "update"
  | "delete"
  | "restore"
  | "obfuscate"
  | "touch"
  | "recalc"
  | "attach_files";

/** A state before an operation: `null` for a record that does not exist yet. */
export type FromState = RecordState | null;

/** One allowed move. */
export interface TransitionRow {
  from: FromState;
  op: RecordOperation;
  to: RecordState;
}

/** Every allowed move; anything else is refused. */
export const TRANSITIONS: readonly TransitionRow[] = [
  { from: null, op: "create", to: "updated" },
  { from: "updated", op: "update", to: "updated" },
  { from: "updated", op: "delete", to: "deleted" },
  { from: "deleted", op: "restore", to: "updated" },
  // Obfuscation is an erasure request: it must work whether or not the record is deleted.
  { from: "updated", op: "obfuscate", to: "updated" },
  { from: "deleted", op: "obfuscate", to: "deleted" },
  { from: "updated", op: "touch", to: "updated" },
  // Recalculation only repairs derived values, so it may run on deleted records too.
  { from: "updated", op: "recalc", to: "updated" },
  { from: "deleted", op: "recalc", to: "deleted" },
  { from: "updated", op: "attach_files", to: "updated" },
];

/**
 * The state after `op` from `state`; throws 409 `conflict` when the table has no such move.
 *
 * @example
 * transition("updated", "delete") // "deleted"
 * transition("updated", "restore") // throws "cannot restore a record that is not deleted"
 */
export function transition(state: FromState, op: RecordOperation): RecordState {
  const row = TRANSITIONS.find((r) => r.from === state && r.op === op);
  if (row) return row.to;
  const allowed = TRANSITIONS.filter((r) => r.op === op).map((r) => _stateName(r.from));
  throw conflict(
    `cannot ${_VERBS[op]} ${_describe(state, op)}`,
    `${op} does not apply to a record in state ${_stateName(state)}; it applies to ${allowed.join(" or ")}`,
  );
}

// --- internal ---

const _VERBS: Record<RecordOperation, string> = {
  create: "create",
  update: "update",
  delete: "delete",
  restore: "restore",
  obfuscate: "obfuscate",
  touch: "touch",
  recalc: "recalculate",
  attach_files: "attach files to",
};

function _stateName(s: FromState): string {
  return s === null ? "'none' (not yet created)" : `'${s}'`;
}

/** "a record that is not deleted" reads better than "an updated record" for restore. */
function _describe(state: FromState, op: RecordOperation): string {
  if (state === null) return "a record that does not exist";
  if (op === "create") return "a record that already exists";
  if (op === "restore" && state !== "deleted") return "a record that is not deleted";
  return `a ${state === "deleted" ? "deleted" : "live"} record`;
}
