/**
 * @module gateway/segments/delete-task
 * The `segment_delete` task (spec v2-gateway 7, `action/delete`): deletes every member of a
 * segment, extra object-form `rules` ANDed in, `batch_size` members per chunk. Each delete is
 * the engine's own (`plannedMove(..., "delete")`, committed by the task runner with the
 * chunk), so audit history, the change feed, data events and triggers see it. `safe_mode`
 * only counts. The walk's cursor indexes stored lists, so deleting as it goes skips nothing.
 */
import {
  badRequest,
  formatTimestamp,
  matchesQuery,
  notFound,
  parseRecordUri,
  plannedMove,
  updateWrite,
  type EngineContext,
  type RecordWrite,
  type StoredRecord,
  type TaskKind,
} from "@records-service/core";
import { segmentQuery } from "./rules.js";
import { segmentWalk, taskReader, walkStep } from "./walk.js";

/** The task kind's name. */
export const SEGMENT_DELETE_TASK = "segment_delete";

/** `batch_size` bounds and default. */
export const DELETE_BATCH = { min: 1, max: 2500, fallback: 100 } as const;

/** The stored parameters of a `segment_delete` task. */
export interface SegmentDeleteParams {
  /** The segment's URI. */
  uri: string;
  rules: Record<string, unknown>;
  safe_mode: boolean;
  batch_size: number;
  verbose: boolean;
}

/**
 * `segment_delete`: params `{uri, rules, safe_mode, batch_size, verbose}` (see
 * `SegmentDeleteParams`); `prepare` checks the segment, its rules and the extra rules.
 */
export const segmentDeleteTask: TaskKind = {
  name: SEGMENT_DELETE_TASK,

  async prepare(ctx, flock, raw) {
    const p = checkDeleteParams(raw);
    const segment = await _segment(ctx, flock, p.uri);
    segmentWalk(taskReader(ctx), segment);
    segmentQuery(p.rules, String(segment.data.resource_type), `${p.uri} (action rules)`, ctx.clock.now());
    return { ...p };
  },

  async step(ctx, task) {
    const p = checkDeleteParams(task.params);
    const segment = await _segment(ctx, task.flock, p.uri);
    const walk = segmentWalk(taskReader(ctx), segment);
    const extra = segmentQuery(p.rules, String(segment.data.resource_type), `${p.uri} (action rules)`, task.requestedAt);
    const step = await walkStep(taskReader(ctx), walk, task.cursor, p.batch_size, (r) => matchesQuery(r, extra));
    const now = formatTimestamp(ctx.clock.now());
    const writes: RecordWrite[] = p.safe_mode ? [] : step.records.map((r) => updateWrite(r, plannedMove(r, "delete", now)));
    const n = step.records.length;
    return {
      writes,
      cursor: step.cursor,
      done: step.cursor === null,
      counts: { matched: n, changed: writes.length, unchanged: n - writes.length, errors: 0 },
    };
  },
};

/**
 * The parameters checked and normalized: `uri` a segment URI, `rules` an object (or
 * absent), `batch_size` a whole number 1..2500 (default 100), booleans as booleans.
 */
export function checkDeleteParams(raw: Record<string, unknown>): SegmentDeleteParams {
  const uri = raw.uri;
  if (typeof uri !== "string" || parseRecordUri(uri)?.type !== "segment") throw badRequest("invalid task parameters", "uri must be a segment URI");
  const rules = raw.rules ?? {};
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) throw badRequest("bad rules", "rules must be an object of list parameters, e.g. {\"source\": \"web\"}");
  const size = raw.batch_size ?? DELETE_BATCH.fallback;
  if (typeof size !== "number" || !Number.isInteger(size) || size < DELETE_BATCH.min || size > DELETE_BATCH.max) {
    throw badRequest("bad batch_size", `batch_size ${JSON.stringify(size)} is not accepted; use a whole number from ${DELETE_BATCH.min} to ${DELETE_BATCH.max}`);
  }
  return { uri, rules: rules as Record<string, unknown>, safe_mode: raw.safe_mode === true, batch_size: size, verbose: raw.verbose === true };
}

// --- internal ---

async function _segment(ctx: EngineContext, flock: string, uri: string): Promise<StoredRecord> {
  const key = parseRecordUri(uri);
  const segment = key && key.flock === flock ? await taskReader(ctx).read.getRecord(flock, "segment", key.id) : undefined;
  if (!segment || segment.state === "deleted") throw notFound("not found", `no segment ${uri} in flock ${flock}`);
  return segment;
}
