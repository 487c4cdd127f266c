/**
 * @module records/commit
 * The one step every write goes through. It looks at the record writes of a change set,
 * adds the data_event records they imply (`planEvents`) and one outbox job per active
 * trigger of that event, and applies everything in one transaction: nothing is emitted for
 * a change that did not commit, and nothing committed lacks its events and queued actions.
 */
import { badRequest, isRecordsError } from "../errors.js";
import { actionTag, buildDataEvent, DATA_EVENT_TYPE } from "../events/data-event.js";
import { planEvents, type PlannedEvent, type PlannedRequeue } from "../events/emit.js";
import type { ChangeSet, RecordWrite } from "../model/change-set.js";
import type { OutboxJob } from "../model/outbox.js";
import type { StoredRecord } from "../model/record.js";
import { formatTimestamp, parseTimestamp } from "../time.js";
import type { TriggerConfig } from "../triggers/config.js";
import { namePlans } from "./plan-names.js";
import { derive } from "./revise.js";
import { requireFlock } from "./guards.js";
import type { CommitOptions, CommitResult, EngineContext, EventInput } from "./types.js";
import { MAX_PAGE_SIZE, MAX_VALUES_PER_FILTER } from "../query/limits.js";

export type { CommitOptions, CommitResult };

/**
 * Applies `changes` with the events and jobs its record writes imply. Updates must carry
 * `before` (the record as read) for change events to be seen. Listeners registered with
 * `engine.onJobsQueued` are told after a commit that queued jobs. The one place in the
 * engine that calls `storage.apply` for record writes.
 *
 * @example
 * await commit(ctx, { records: [{ kind: "insert", record: person }] }); // + contact_created
 */
export async function commit(ctx: EngineContext, changes: ChangeSet, opts: CommitOptions = {}): Promise<CommitResult> {
  if (opts.verbatim) {
    await ctx.storage.apply(changes);
    return { events: [], jobs: [] };
  }
  await namePlans(ctx, changes.records ?? []);
  if (opts.events === false) {
    await ctx.storage.apply(changes);
    return { events: [], jobs: [] };
  }
  const now = ctx.clock.now();
  const plan = planEvents(changes.records ?? [], now);
  const added = _eventChanges(ctx, plan.events, now);
  const requeued = plan.requeue.flatMap((r) => _requeueJobs(ctx, r, now));
  const jobs = [...added.jobs, ...requeued];
  if (added.events.length === 0 && jobs.length === 0) {
    await ctx.storage.apply(changes);
    return { events: [], jobs: [] };
  }
  await ctx.storage.apply({
    ...changes,
    records: [...(changes.records ?? []), ...added.events.map((record): RecordWrite => ({ kind: "insert", record }))],
    outbox: [...(changes.outbox ?? []), ...jobs],
  });
  _notify(ctx, jobs);
  return { events: added.events, jobs };
}

/**
 * Records events that no record write carries (a login, the scheduler's date-relative
 * events) with their jobs, in one transaction. An event whose `dedupeKey` is already
 * stored on a data event of the flock is skipped; the result holds the events created.
 * Throws `bad_request` for an unknown trigger name, a bad timestamp or an expiry not after
 * the fire time, and `not_found` for an unknown flock; then nothing is stored.
 *
 * @example
 * await emitEvents(ctx, "demo", [{ name: "login", contextUri: null }]);
 */
export async function emitEvents(ctx: EngineContext, flock: string, events: readonly EventInput[]): Promise<StoredRecord[]> {
  await requireFlock(ctx, flock);
  const keyed = events.some((e) => e.dedupeKey !== undefined);
  for (let attempt = 0; ; attempt++) {
    try {
      return await _emitOnce(ctx, flock, events);
    } catch (e) {
      // Another process stored one of the keys meanwhile (the adapters keep one data event per
      // key and flock): read the stored keys again, so the events it stored are skipped.
      if (!keyed || !isRecordsError(e) || e.code !== "conflict" || attempt >= EMIT_CONFLICT_RETRIES) throw e;
    }
  }
}

/** How many times `emitEvents` reads the stored keys again after losing a race for one. */
const EMIT_CONFLICT_RETRIES = 3;

/**
 * A new pending job for `action` of `trigger` on a data event, due now. Its delivery id is
 * its own id: the same on every attempt, new when the action is queued again.
 */
function newJob(ctx: EngineContext, flock: string, dataEventId: string, trigger: string, action: string, now: Date): OutboxJob {
  const id = ctx.ids();
  const at = formatTimestamp(now);
  return {
    id,
    flock,
    dataEventId,
    trigger,
    action,
    deliveryId: id,
    status: "pending",
    attempts: 0,
    nextAttemptAt: at,
    firstAttemptAt: null,
    lastError: null,
    lastStatus: null,
    body: null,
    created: at,
    claimedUntil: null,
  };
}

// --- internal ---

async function _emitOnce(ctx: EngineContext, flock: string, events: readonly EventInput[]): Promise<StoredRecord[]> {
  const now = ctx.clock.now();
  const nowText = formatTimestamp(now);
  const planned: PlannedEvent[] = [];
  const keys = await _storedDedupeKeys(ctx, flock, events);
  for (const e of events) {
    if (e.dedupeKey !== undefined) {
      if (keys.has(e.dedupeKey)) continue;
      keys.add(e.dedupeKey);
    }
    planned.push({
      flock,
      name: e.name,
      contextUri: e.contextUri,
      fireAt: e.fireAt ?? nowText,
      ...(e.dedupeKey !== undefined ? { dedupeKey: e.dedupeKey } : {}),
      ...(e.expiresAt !== undefined ? { expiresAt: e.expiresAt } : {}),
    });
  }
  if (planned.length === 0) return [];
  const added = _eventChanges(ctx, planned, now);
  await ctx.storage.apply({
    records: added.events.map((record): RecordWrite => ({ kind: "insert", record })),
    outbox: added.jobs,
  });
  _notify(ctx, added.jobs);
  return added.events;
}

function _activeTriggers(ctx: EngineContext, flock: string, name: string): TriggerConfig[] {
  return ctx.triggers(flock).filter((t) => t.flock === flock && t.active && t.trigger === name);
}

function _eventChanges(ctx: EngineContext, planned: readonly PlannedEvent[], now: Date): { events: StoredRecord[]; jobs: OutboxJob[] } {
  const events: StoredRecord[] = [];
  const jobs: OutboxJob[] = [];
  const nowText = formatTimestamp(now);
  for (const p of planned) {
    const fireAt = _time(p.fireAt, "fireAt");
    const data: Record<string, unknown> = buildDataEvent({
      name: p.name,
      fireAt,
      contextUri: p.contextUri,
      ...(p.expiresAt !== undefined ? { expiresAt: _time(p.expiresAt, "expiresAt") } : {}),
    });
    if (p.dedupeKey !== undefined) data.dedupe_key = p.dedupeKey;
    const record: StoredRecord = {
      id: ctx.ids(),
      flock: p.flock,
      type: DATA_EVENT_TYPE,
      state: "updated",
      ...derive(DATA_EVENT_TYPE, data),
      created: nowText,
      lastUpdated: nowText,
      version: 1,
    };
    events.push(record);
    for (const t of _activeTriggers(ctx, p.flock, p.name)) jobs.push(newJob(ctx, p.flock, record.id, p.name, t.action, now));
  }
  return { events, jobs };
}

function _requeueJobs(ctx: EngineContext, r: PlannedRequeue, now: Date): OutboxJob[] {
  return _activeTriggers(ctx, r.flock, r.trigger)
    .filter((t) => r.actions.includes(actionTag(t.action)))
    .map((t) => newJob(ctx, r.flock, r.dataEventId, r.trigger, t.action, now));
}

function _time(text: string, what: string): Date {
  const d = parseTimestamp(text);
  if (!d) throw badRequest("invalid timestamp", `${what} ${JSON.stringify(text)} is not a date or timestamp (YYYY-MM-DDTHH:MM:SS.ffffff)`);
  return d;
}

/**
 * The dedupe keys among `events` already stored on a data event of the flock: one indexed
 * `or` lookup per MAX_VALUES_PER_FILTER keys rather than one query per event (the
 * scheduler emits in chunks, each event with a key).
 */
async function _storedDedupeKeys(ctx: EngineContext, flock: string, events: readonly EventInput[]): Promise<Set<string>> {
  const wanted = [...new Set(events.flatMap((e) => (e.dedupeKey === undefined ? [] : [e.dedupeKey])))];
  const stored = new Set<string>();
  for (let i = 0; i < wanted.length; i += MAX_VALUES_PER_FILTER) {
    const batch = wanted.slice(i, i + MAX_VALUES_PER_FILTER);
    const page = await ctx.storage.listRecords(flock, DATA_EVENT_TYPE, {
      filters: [{ field: "dedupe_key", meta: false, op: "or", values: batch.map((text) => ({ text })) }],
      mode: "AND",
      states: ["updated", "deleted"],
      page: 1,
      pageSize: MAX_PAGE_SIZE, // each key is stored once; the bound only guards a duplicate
    });
    for (const r of page.records) if (typeof r.data.dedupe_key === "string") stored.add(r.data.dedupe_key);
  }
  return stored;
}

function _notify(ctx: EngineContext, jobs: readonly OutboxJob[]): void {
  if (jobs.length === 0) return;
  for (const listener of ctx.jobListeners) {
    try {
      listener(jobs);
    } catch {
      // A listener is a nudge (e.g. wake the outbox worker); its failure must not fail a committed write.
    }
  }
}
