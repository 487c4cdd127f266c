/**
 * @module gateway/segments/walk
 * A segment's members read a step at a time (spec v2-gateway 3.1): the rule matches of each
 * of its types walked with the record reader's cursor, then the listed URIs (`uris_include`) that
 * are live, of its types and not already rule matches; `uris_exclude` taken out of both.
 * The position is a text cursor that stays right while members are deleted between steps
 * (a task resumes at it), so exports, look-ups, pages and the delete action read any
 * number of members without holding them all.
 */
import { badRequest, createRecordReader, matchesQuery, parseRecordUri, TASK_CHUNK_DATA_LENGTH, type EngineContext, type StoredRecord } from "@records-service/core";
import { canonicalUri, refOf, uriOf } from "../read-all.js";
import { segmentPlan } from "./members.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** A segment ready to walk: its plan and its listed URIs. */
export interface SegmentWalk {
  readonly segment: StoredRecord;
  readonly types: readonly string[];
  readonly rules: boolean;
  readonly listed: boolean;
  readonly query: ReturnType<typeof segmentPlan>["query"];
  /** `uris_include`, canonical, first occurrence kept, in stored order. */
  readonly include: readonly string[];
  readonly exclude: ReadonlySet<string>;
}

/** What a walk reads through: an engine, or a task's context (`taskReader`). */
export type Reader = Pick<RouteEngine, "context" | "read">;

/**
 * A task's context as a walk's reader: its record reader over the context's storage.
 *
 * @example
 * const step = await walkStep(taskReader(ctx), walk, task.cursor, 100);
 */
export function taskReader(ctx: EngineContext): Reader {
  return { context: ctx, read: createRecordReader(ctx) };
}

/** One step of a walk: the members read and where the next step starts (null: done). */
export interface WalkStep {
  records: StoredRecord[];
  cursor: string | null;
}

/** Members read per storage step when a caller walks to the end. */
const WALK_STEP = 500;

/**
 * The walk of `segment` (a 400 naming the problem when its type, segment type or a rule
 * is bad: see `segmentPlan`).
 *
 * @example
 * const walk = segmentWalk(engine, segment);
 */
export function segmentWalk(engine: Reader, segment: StoredRecord): SegmentWalk {
  const { types, kind, query } = segmentPlan(engine, segment);
  return {
    segment,
    types,
    rules: kind.rules,
    listed: kind.listed,
    query,
    include: kind.listed ? _uris(segment.data.uris_include) : [],
    exclude: new Set(_uris(segment.data.uris_exclude)),
  };
}

/**
 * The next members after `cursor` (null: from the start): at most `limit`, fewer only at the
 * end or when a step's records are large. `accept` narrows the members further (a text
 * search, extra rules); the cursor moves past what it refuses.
 *
 * @example
 * let step = await walkStep(engine, walk, null, 100);
 * while (step.cursor) step = await walkStep(engine, walk, step.cursor, 100);
 */
export async function walkStep(
  engine: Reader,
  walk: SegmentWalk,
  cursor: string | null,
  limit: number,
  accept: (r: StoredRecord) => boolean = () => true,
): Promise<WalkStep> {
  const flock = walk.segment.flock;
  let at: _Position | null = cursor === null ? _start(walk) : _parse(cursor);
  const out: StoredRecord[] = [];
  const keep = (r: StoredRecord) => !walk.exclude.has(uriOf(r)) && accept(r);
  while (at !== null && out.length < limit) {
    if (at.p === "rules") {
      const page = await engine.read.scanRecords(flock, walk.types[at.t]!, walk.query, at.after, limit - out.length, TASK_CHUNK_DATA_LENGTH);
      out.push(...page.records.filter(keep));
      at = page.cursor !== null ? { ...at, after: page.cursor } : _afterRules(walk, at.t);
    } else {
      // Indexes into the stored list, so deleting members between steps moves nothing.
      const slice = walk.include.slice(at.i, at.i + (limit - out.length));
      const found = await _liveByUri(engine, flock, slice);
      for (const uri of slice) {
        const r = found.get(uri);
        if (r && walk.types.includes(r.type) && !(walk.rules && matchesQuery(r, walk.query)) && keep(r)) out.push(r);
      }
      const i = at.i + slice.length;
      at = i < walk.include.length ? { p: "listed", t: 0, after: null, i } : null;
    }
  }
  return { records: out, cursor: at === null ? null : JSON.stringify(at) };
}

/**
 * Every member, read `WALK_STEP` at a time (memory holds one step).
 *
 * @example
 * for await (const person of walkMembers(engine, walk)) rows.push(person.displayValue);
 */
export async function* walkMembers(engine: Reader, walk: SegmentWalk, accept?: (r: StoredRecord) => boolean): AsyncGenerator<StoredRecord> {
  let cursor: string | null = null;
  do {
    const step: WalkStep = await walkStep(engine, walk, cursor, WALK_STEP, accept);
    yield* step.records;
    cursor = step.cursor;
  } while (cursor !== null);
}

/**
 * A text search over display values: true when `q` (trimmed, case ignored) is empty or
 * found in the record's display value.
 */
export function displayContains(q: string | undefined): (r: StoredRecord) => boolean {
  const needle = (q ?? "").trim().toLowerCase();
  return needle === "" ? () => true : (r) => r.displayValue.toLowerCase().includes(needle);
}

// --- internal ---

/** Where a walk stands: in the rule matches of `types[t]` after `after`, or at `i` of the listed URIs. */
type _Position = { p: "rules"; t: number; after: string | null; i: 0 } | { p: "listed"; t: 0; after: null; i: number };

function _start(walk: SegmentWalk): _Position | null {
  return walk.rules ? { p: "rules", t: 0, after: null, i: 0 } : _listedStart(walk);
}

function _afterRules(walk: SegmentWalk, t: number): _Position | null {
  return t + 1 < walk.types.length ? { p: "rules", t: t + 1, after: null, i: 0 } : _listedStart(walk);
}

function _listedStart(walk: SegmentWalk): _Position | null {
  return walk.include.length > 0 ? { p: "listed", t: 0, after: null, i: 0 } : null;
}

function _parse(cursor: string): _Position {
  let v: unknown;
  try {
    v = JSON.parse(cursor);
  } catch {
    v = undefined;
  }
  const o = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
  const whole = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n >= 0;
  if (o.p === "rules" && whole(o.t) && (o.after === null || typeof o.after === "string")) return { p: "rules", t: o.t as number, after: o.after as string | null, i: 0 };
  if (o.p === "listed" && whole(o.i)) return { p: "listed", t: 0, after: null, i: o.i as number };
  throw badRequest("bad cursor", "the walk's position is not one this service wrote");
}

/** The live records of `flock` with these URIs, by canonical URI. */
async function _liveByUri(engine: Reader, flock: string, uris: readonly string[]): Promise<Map<string, StoredRecord>> {
  const keys = uris.map((u) => parseRecordUri(canonicalUri(u))).filter((k) => k !== undefined && k !== null && k.flock === flock);
  if (keys.length === 0) return new Map();
  const found = await engine.read.getRecords(flock, keys.map((k) => ({ type: k!.type, id: k!.id })));
  return new Map(found.filter((r) => r.state === "updated").map((r) => [uriOf(r), r]));
}

function _uris(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return [...new Set(list.map(refOf).filter((u): u is string => u !== undefined))];
}
