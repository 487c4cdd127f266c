/**
 * @module tasks/recalc-kind
 * The `recalc` task: `POST .../recalc/` over every match of a query. Each matched record's
 * derived values (person names, display value) are recomputed and stale ones written;
 * with `force`, the records referencing each match are recomputed too. With `referencing`
 * (a record URI) it recomputes every record referencing that record instead: what a forced
 * `POST .../recalc/` queues for a record with more than `RECALC_REFERENCING_LIMIT` of them.
 */
import * as v from "valibot";
import { badRequest } from "../errors.js";
import { RECALC_REFERENCING_LIMIT, recalculated } from "../records/recalculated.js";
import { updateWrite } from "../records/revise.js";
import type { EngineContext } from "../records/types.js";
import { recordUri } from "../schema/references.js";
import type { RecordWrite } from "../model/change-set.js";
import type { StoredRecord } from "../model/record.js";
import { formatTimestamp } from "../time.js";
import { normalizeLookup, parseLookup, type LookupQuery } from "./lookup-query.js";
import { nextReferencing, prepareReferencing } from "./recalc-referencing.js";
import { TASK_CHUNK_DATA_LENGTH, type TaskCounts, type TaskKind } from "./types.js";

/** The parameters of a recalc task as stored. */
interface RecalcParams {
  resource_type: string;
  query: LookupQuery;
  force: boolean;
  /** Set: recompute the records referencing this record URI (query and force unused). */
  referencing?: string;
}

/**
 * Recalculates every record of `resource_type` matching `query` (default: all live ones;
 * `include_deleted` allowed), with `force` also the records referencing each.
 *
 * @example
 * await createTask(engine, "demo", "recalc", { resource_type: "person", query: {}, force: true });
 */
export const recalcTask: TaskKind = {
  name: "recalc",

  async prepare(ctx, flock, raw) {
    const parsed = v.safeParse(_SCHEMA, raw);
    if (!parsed.success) {
      // valibot reports a missing key on the object; name what the key needs instead.
      const say = (i: v.BaseIssue<unknown>) => (i.input === undefined ? _MISSING : i.message);
      throw badRequest("invalid task parameters", parsed.issues.map(say).join("; "));
    }
    const type = parsed.output.resource_type;
    if (!ctx.typesOf(flock).has(type)) throw badRequest("invalid task parameters", `resource_type ${JSON.stringify(type)} is not served`);
    // valibot's record drops keys such as `constructor` and `prototype`: read the raw object.
    const query = normalizeLookup(raw.query ?? {}, { allowStates: true });
    parseLookup(query, type, ctx.clock.now());
    const params: RecalcParams = { resource_type: type, query, force: parsed.output.force ?? false };
    if (parsed.output.referencing !== undefined) {
      if (Object.keys(query).length > 0 || params.force) {
        throw badRequest("invalid task parameters", "referencing recomputes the records referencing one record: give no query and no force with it");
      }
      params.referencing = await prepareReferencing(ctx, flock, parsed.output.referencing);
    }
    return { ...params };
  },

  async step(ctx, task, limit) {
    const p = task.params as unknown as RecalcParams;
    const page =
      typeof p.referencing === "string"
        ? await nextReferencing(ctx, task, p.referencing, limit)
        : await ctx.storage.scanRecords(
            task.flock,
            p.resource_type,
            parseLookup(p.query, p.resource_type, task.requestedAt),
            task.cursor,
            limit,
            TASK_CHUNK_DATA_LENGTH,
          );
    const now = formatTimestamp(ctx.clock.now());
    const counts: TaskCounts = { matched: page.records.length, changed: 0, unchanged: 0, errors: 0 };
    const writes = new Map<string, RecordWrite>();
    const consider = (r: StoredRecord) => {
      const next = writes.has(r.id) ? undefined : recalculated(r, now);
      if (!next) return false;
      writes.set(r.id, updateWrite(r, next));
      return true;
    };
    for (const record of page.records) {
      if (consider(record)) counts.changed += 1;
      else counts.unchanged += 1;
      if (!p.force) continue;
      const referencing = await ctx.storage.listReferencing(task.flock, recordUri(record.flock, record.type, record.id), RECALC_REFERENCING_LIMIT);
      for (const r of referencing) if (consider(r)) counts.changed += 1;
    }
    return { writes: [...writes.values()], cursor: page.cursor, done: page.cursor === null, counts };
  },
};

// --- internal ---

const _MISSING = "resource_type is required: the type whose records are recalculated";

const _SCHEMA = v.object({
  resource_type: v.string(_MISSING),
  query: v.optional(v.record(v.string(), v.unknown(), "query must be a JSON object of field names to values")),
  force: v.optional(v.boolean("force must be true or false")),
  referencing: v.optional(v.string("referencing must be a record URI")),
});

