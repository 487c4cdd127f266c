/**
 * @module query/parse-controls
 * The list parameters that steer rather than filter: `mode`, `include_deleted`, `state`,
 * `page`, `page_size` and its other name `limit`. Each bad value is a 400 naming the
 * parameter, the value and what is accepted.
 */
import { badRequest } from "../errors.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "./limits.js";
import { quoteForMessage as q } from "./split-key.js";
import type { ListQuery, RecordState } from "../model/query.js";

/** Words accepted for yes/no parameters (compared lower-case). */
const YES = ["y", "yes", "true", "1"];
const NO = ["n", "no", "false", "0"];

/**
 * Reads the control parameters (one value each) into the non-filter part of a `ListQuery`.
 * `page_size` wins over `limit` when both are given; both are still checked.
 *
 * @example
 * parseControls(new Map([["include_deleted", "Y"], ["limit", "10"]]))
 * // { mode: "AND", states: ["updated", "deleted"], page: 1, pageSize: 10 }
 */
export function parseControls(controls: ReadonlyMap<string, string>): Omit<ListQuery, "filters"> {
  const mode = _mode(controls.get("mode"));
  const includeDeleted = _yesNo("include_deleted", controls.get("include_deleted"));
  const state = _state(controls.get("state"));
  const page = _integer("page", controls.get("page"), MAX_PAGE) ?? 1;
  const limit = _integer("limit", controls.get("limit"), MAX_PAGE_SIZE);
  const pageSize = _integer("page_size", controls.get("page_size"), MAX_PAGE_SIZE) ?? limit ?? DEFAULT_PAGE_SIZE;
  // `state` picks one state whether or not include_deleted is given.
  const states: RecordState[] = state ? [state] : includeDeleted ? ["updated", "deleted"] : ["updated"];
  return { mode, states, page, pageSize };
}

// --- internal ---

function _mode(raw: string | undefined): ListQuery["mode"] {
  if (raw === undefined) return "AND";
  const v = raw.toUpperCase();
  if (v === "AND" || v === "OR") return v;
  throw badRequest("bad mode", `mode ${q(raw)} is not accepted; use AND or OR`);
}

function _yesNo(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const v = raw.toLowerCase();
  if (YES.includes(v)) return true;
  if (NO.includes(v)) return false;
  throw badRequest(`bad ${name}`, `${name} ${q(raw)} is not accepted; use Y or N (also yes/no, true/false, 1/0)`);
}

function _state(raw: string | undefined): RecordState | undefined {
  if (raw === undefined) return undefined;
  const v = raw.toLowerCase();
  if (v === "updated" || v === "deleted") return v;
  throw badRequest("bad state", `state ${q(raw)} is not accepted; use updated or deleted`);
}

/** A whole number from 1 to `max` written in plain digits, or undefined when absent. */
function _integer(name: string, raw: string | undefined, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (n >= 1 && n <= max) return n;
  throw badRequest(`bad ${name}`, `${name} ${q(raw)} is not accepted; use a whole number from 1 to ${max}`);
}
