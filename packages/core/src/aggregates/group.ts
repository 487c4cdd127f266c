/**
 * @module aggregates/group
 * Group-by counts, distinct values and picker look-ups over the records a list query
 * matches. A list field counts once per distinct entry (a record tagged `a` and `b` is in
 * both groups); a record without a value is in the `null` group.
 */
import { badRequest } from "../errors.js";
import { FIELD_NAME_RE } from "../schema/input.js";
import { cutDates } from "../schema/field-values.js";
import type { EngineContext } from "../records/types.js";
import type { DateCut, ScanQuery } from "../storage/record-store.js";
import { requireFlockAndType } from "../records/guards.js";
import { MAX_AGGREGATE_RECORDS, scanEach, tooManyRecords } from "./scan-each.js";

/** The most groups (or distinct values) one answer lists: the largest first. */
const MAX_GROUPS = 1000;
/** Default and largest number of look-up answers. */
export const DEFAULT_LOOKUP_LIMIT = 20;
export const MAX_LOOKUP_LIMIT = 100;

/** How a date or timestamp value may be cut before grouping: to its year, month or day. */
export const GROUP_PERIODS = ["year", "month", "day"] as const;
export type GroupPeriod = (typeof GROUP_PERIODS)[number];

/** One group of `groupCount`. */
export interface GroupCount {
  value: unknown;
  count: number;
}

/**
 * The records matching `query` counted by the values of `field`, largest count first (ties
 * by value), at most `MAX_GROUPS`; `groups` is how many there were in all.
 *
 * @example
 * await groupCount(ctx, "demo", "person", "gender", query) // { results: [{ value: "f", count: 12 }, ...], groups: 3 }
 */
export async function groupCount(
  ctx: EngineContext,
  flock: string,
  type: string,
  field: string,
  query: ScanQuery,
  period?: GroupPeriod,
): Promise<{ results: GroupCount[]; groups: number }> {
  const length = period ? _PERIOD_LENGTH[period] : undefined;
  const counts = new Map<string, GroupCount>();
  const add = (stored: unknown, n: number) => {
    for (const value of _distinctValues(stored)) {
      const key = JSON.stringify(value);
      const g = counts.get(key);
      if (g) g.count += n;
      else counts.set(key, { value, count: n });
    }
  };
  if (field === "state") {
    await scanEach(ctx, flock, type, query, (r) => (add(length === undefined ? r.state : cutDates(r.state, length), 1), true));
  } else {
    // Counted in the database, one row per stored value (cut to its period there, so a
    // timestamp by month is one row per month): no record is read whole.
    if (!FIELD_NAME_RE.test(field)) throw badRequest("invalid field", `${JSON.stringify(field)} is not a field name`);
    await requireFlockAndType(ctx, flock, type);
    // The bound is on the groups read, not the records counted: a count over a million
    // records by month reads twelve rows per year.
    let rows = 0;
    for (const row of await ctx.storage.countFieldValues(flock, type, query, [field], [length])) {
      if (++rows > MAX_AGGREGATE_RECORDS) throw tooManyRecords(type);
      add(row.values[0], row.count);
    }
  }
  const all = [...counts.values()].sort((a, b) => b.count - a.count || _order(a.value, b.value));
  return { results: all.slice(0, MAX_GROUPS), groups: all.length };
}

/**
 * The distinct non-null values of `field` among the matches, sorted (numbers before
 * text), at most `MAX_GROUPS`.
 */
export async function distinctValues(
  ctx: EngineContext,
  flock: string,
  type: string,
  field: string,
  query: ScanQuery,
): Promise<{ results: unknown[]; values: number }> {
  const { results, groups } = await groupCount(ctx, flock, type, field, query);
  const values = results.map((g) => g.value).filter((v) => v !== null);
  const hadNull = results.some((g) => g.value === null);
  return { results: values.sort(_order), values: groups - (hadNull ? 1 : 0) };
}

/**
 * Picker entries `{id, text}`: matching records whose display value contains `q` (case
 * ignored; every record when `q` is empty), in insertion order, at most `limit`.
 */
export async function lookupEntries(
  ctx: EngineContext,
  flock: string,
  type: string,
  q: string,
  limit: number,
  query: ScanQuery,
): Promise<{ id: string; text: string }[]> {
  const needle = q.trim().toLowerCase();
  const out: { id: string; text: string }[] = [];
  await scanEach(ctx, flock, type, query, (r) => {
    if (needle === "" || r.displayValue.toLowerCase().includes(needle)) out.push({ id: r.id, text: r.displayValue });
    return out.length < limit;
  });
  return out;
}

// --- internal ---

const _PERIOD_LENGTH: Record<GroupPeriod, DateCut> = { year: 4, month: 7, day: 10 };

/** A value's groups: each distinct list entry, the scalar itself, or `[null]` when unset. */
function _distinctValues(value: unknown): unknown[] {
  const entries = Array.isArray(value) ? value.filter((e) => e !== null && e !== undefined) : value == null ? [] : [value];
  if (entries.length === 0) return [null];
  const seen = new Map<string, unknown>();
  for (const e of entries) seen.set(JSON.stringify(e), e);
  return [...seen.values()];
}

/** Null first, then numbers, booleans, text, other JSON (by its text). */
function _order(a: unknown, b: unknown): number {
  const rank = (v: unknown) => (v === null ? 0 : typeof v === "number" ? 1 : typeof v === "boolean" ? 2 : typeof v === "string" ? 3 : 4);
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const ta = typeof a === "string" ? a : JSON.stringify(a);
  const tb = typeof b === "string" ? b : JSON.stringify(b);
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}
