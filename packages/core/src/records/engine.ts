/**
 * @module records/engine
 * `createRecordEngine`: the record operations bound to one Storage, clock and id source.
 * Each operation reads through Storage, decides in pure code and commits one change set.
 */
import { followChanges } from "../changes/feed.js";
import { INDEX_DEMAND_DEFAULTS } from "../indexes/demand.js";
import { addFieldIndex, applyConfigIndexes, dropFieldIndex, listFieldIndexViews, resetFieldIndex } from "../indexes/operations.js";
import { createIdSource } from "../ids.js";
import { checkExtraTypeNames, resourceTypeSet } from "../schema/resource-types.js";
import { systemClock } from "../time.js";
import { attributedContext } from "./attribution.js";
import { commit, emitEvents } from "./commit.js";
import { createRecord, createRecords } from "./create.js";
import { attachFiles } from "./files.js";
import { deleteRecord, obfuscateRecord, restoreRecord, touchRecord } from "./lifecycle.js";
import { getRecord, listRecords, toSingle } from "./read.js";
import { createRecordReader } from "./reader.js";
import { recalcRecord } from "./recalc.js";
import type { EngineContext, EngineOptions, RecordEngine } from "./types.js";
import { updateRecord } from "./update.js";

/**
 * The record engine. Only `storage` is required; the clock defaults to the system clock
 * and ids to time-ordered random ids.
 *
 * @example
 * const engine = createRecordEngine({ storage: createMemoryStorage() });
 * const ada = await engine.create("demo", "person", { first_name: "Ada", last_name: "Lovelace" });
 */
export function createRecordEngine(opts: EngineOptions): RecordEngine {
  const clock = opts.clock ?? systemClock;
  const resourceTypes = resourceTypeSet(opts.extraResourceTypes);
  const perFlock = new Map<string, ReadonlySet<string>>();
  for (const [flock, extra] of Object.entries(opts.flockResourceTypes ?? {})) {
    checkExtraTypeNames(extra);
    perFlock.set(flock, new Set([...resourceTypes, ...extra]));
  }
  const ctx: EngineContext = {
    storage: opts.storage,
    clock,
    ids: opts.ids ?? createIdSource(clock),
    resourceTypes,
    typesOf: (flock) => perFlock.get(flock) ?? resourceTypes,
    triggers: opts.triggers ?? (() => []),
    jobListeners: new Set(),
    indexDemand: opts.indexDemand ?? INDEX_DEMAND_DEFAULTS,
  };
  return _engine(ctx);
}

// --- internal ---

/** The operations bound to `ctx`. */
function _engine(ctx: EngineContext): RecordEngine {
  return {
    context: ctx,
    read: createRecordReader(ctx),
    create: (flock, type, input) => createRecord(ctx, flock, type, input),
    createMany: (flock, type, inputs) => createRecords(ctx, flock, type, inputs),
    get: (flock, type, id) => getRecord(ctx, flock, type, id),
    list: (flock, type, query) => listRecords(ctx, flock, type, query),
    update: (flock, type, id, patch, opts) => updateRecord(ctx, flock, type, id, patch, opts),
    delete: (flock, type, id) => deleteRecord(ctx, flock, type, id),
    restore: (flock, type, id) => restoreRecord(ctx, flock, type, id),
    obfuscate: (flock, type, id) => obfuscateRecord(ctx, flock, type, id),
    touch: (flock, type, id) => touchRecord(ctx, flock, type, id),
    recalc: (flock, type, id, o) => recalcRecord(ctx, flock, type, id, o),
    attachFiles: (flock, type, id, files) => attachFiles(ctx, flock, type, id, files),
    toSingle: (record) => toSingle(ctx, record),
    writeMany: (changes, o) => commit(ctx, changes, o),
    getMany: (flock, keys) => ctx.storage.getRecords(flock, [...keys]),
    emit: (flock, events) => emitEvents(ctx, flock, events),
    changes: (flock, o) => followChanges(ctx.storage, flock, o),
    onJobsQueued: (listener) => {
      ctx.jobListeners.add(listener);
      return () => void ctx.jobListeners.delete(listener);
    },
    withAttribution: (attribution) => _engine(attributedContext(ctx, attribution)),
    indexes: {
      list: (flock) => listFieldIndexViews(ctx, flock, ctx.typesOf(flock)),
      add: (flock, type, field) => addFieldIndex(ctx, flock, type, field),
      drop: (flock, type, field) => dropFieldIndex(ctx, flock, type, field),
      reset: (flock, type, field) => resetFieldIndex(ctx, flock, type, field),
      applyConfig: (wanted) => applyConfigIndexes(ctx, wanted),
    },
  };
}
