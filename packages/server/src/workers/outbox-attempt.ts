/**
 * @module workers/outbox-attempt
 * One attempt of one claimed outbox job: load the data event, its record and contact, run
 * the action's handler, and record the outcome in one `finishJob` transaction, under the
 * job's claim: on success with the action's tag on the data event (and the handler's
 * changes), on failure with the next attempt's time, or `dead` once the retry window is
 * over. A job whose trigger is not (or no longer) configured and active is `held`, not
 * attempted: it resumes when the trigger is back. If the claim was lost meanwhile (this process stalled past its lease and another
 * took the job over), the outcome is dropped: the other process's is the one recorded.
 */
import {
  DATA_EVENT_TYPE,
  formatTimestamp,
  hasActionRun,
  isContactUri,
  isRecordsError,
  nextAttemptAt,
  parseRecordUri,
  parseTimestamp,
  relatedContactUri,
  tagsWithAction,
  updateWrite,
  type ActionOutcome,
  type ActionRunContext,
  type ChangeSet,
  type Clock,
  type OutboxJob,
  type OutboxJobUpdate,
  type RandomSource,
  type RecordEngine,
  type RetryPolicy,
  type StoredRecord,
  type WebhookPayload,
} from "@records-service/core";
import type { ActionRegistry } from "../actions/registry.js";

/** What an attempt needs. */
export interface AttemptDeps {
  engine: RecordEngine;
  clock: Clock;
  secret: string;
  registry: ActionRegistry;
  policy: Partial<RetryPolicy>;
  random: RandomSource;
  /** Aborted at shutdown: an attempt cut short leaves its job pending, untouched. */
  signal?: AbortSignal;
}

/**
 * How an attempt ended: `done` (delivered, or had already run), `retry` (scheduled
 * again), `dead` (gave up), `held` (its trigger is missing or inactive: kept until it is
 * back), `left` (cut short by shutdown; still pending, released), `lost` (the claim had
 * passed to another process; nothing recorded).
 */
export type AttemptResult = "done" | "retry" | "dead" | "held" | "left" | "lost";

/**
 * Why a job is held (its `last_error` while held).
 *
 * @example
 * heldReason({ trigger: "contact_created", action: "send-json-webhook" })
 * // "held: trigger contact_created with action send-json-webhook is not configured or not active; ..."
 */
export function heldReason(job: Pick<OutboxJob, "trigger" | "action">): string {
  return `held: trigger ${job.trigger} with action ${job.action} is not configured or not active; delivered once it is back (records-service config apply)`;
}

/** How many times a success is recorded again after the data event changed under it. */
const TAG_RETRIES = 3;

/**
 * Runs one job, claimed under `token`, to one recorded outcome.
 *
 * @example
 * const [job] = await storage.claimDueJobs(now, 1, { token, until });
 * await attemptJob(deps, job, token); // { result: "done", update: {...} }
 */
export async function attemptJob(deps: AttemptDeps, job: OutboxJob, token: string): Promise<{ result: AttemptResult; update?: OutboxJobUpdate }> {
  const storage = deps.engine.context.storage;
  const event = await storage.getRecord(job.flock, DATA_EVENT_TYPE, job.dataEventId);
  if (!event || event.state === "deleted") return _give(deps, job, token, "the data event no longer exists");
  if (hasActionRun(event.data, job.action)) {
    // Fires once per event: the tag says it already ran (a retry that raced a success, or a re-queue).
    const update = _same(job, { status: "done" });
    return (await storage.finishJob(job.id, token, update)) ? { result: "done", update } : { result: "lost" };
  }
  const trigger = deps.engine.context
    .triggers(job.flock)
    .find((t) => t.flock === job.flock && t.trigger === job.trigger && t.action === job.action && t.active);
  // Configuration, not the receiver: the job waits, held, until its trigger is back (see
  // runtime/resume-held), rather than dying of a restart without the config file.
  if (!trigger) return _hold(deps, job, token, heldReason(job));
  const handler = deps.registry.get(job.action);
  if (!handler) return _give(deps, job, token, `this server has no handler for action ${job.action}`);
  const flock = await storage.getFlock(job.flock);
  if (!flock) return _give(deps, job, token, `flock ${job.flock} no longer exists`);

  const now = deps.clock.now();
  const { record, contact } = await _related(deps.engine, event);
  const payload: WebhookPayload = {
    trigger: job.trigger,
    event: typeof event.data.event === "string" ? event.data.event : trigger.event,
    flock: job.flock,
    data: record ? await deps.engine.toSingle(record) : null,
    contact: contact ? contact.data : null,
  };
  const body = job.body ?? JSON.stringify(payload);
  if (job.body === null) {
    // Kept before the first attempt: a retry after a crash mid-attempt sends the same bytes
    // under the same delivery id, not the record as it has become since.
    if (!(await storage.finishJob(job.id, token, _same(job, { body, keepClaim: true })))) return { result: "lost" };
  }
  const ctx: ActionRunContext = {
    job,
    trigger,
    dataEvent: event,
    ...(record ? { record } : {}),
    ...(contact ? { contact } : {}),
    flock,
    secret: deps.secret,
    now,
    payload,
    body,
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  let outcome: ActionOutcome;
  try {
    outcome = await handler.run(ctx);
  } catch (e) {
    outcome = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  if (deps.signal?.aborted && !outcome.ok) {
    // Released at once, so the next process (or start) retries without waiting for the lease.
    await storage.finishJob(job.id, token, releasedUpdate(job)).catch(() => false);
    return { result: "left" };
  }

  // The body is kept only while retries need it (stored before the first attempt, above):
  // a finished job holds no copy of personal data.
  const attempt = { attempts: job.attempts + 1, firstAttemptAt: job.firstAttemptAt ?? formatTimestamp(now), body: null };
  if (outcome.ok) {
    const update: OutboxJobUpdate = {
      ...attempt,
      status: "done",
      nextAttemptAt: job.nextAttemptAt,
      lastError: null,
      lastStatus: outcome.status ?? null,
    };
    const recorded = await _finishDone(deps, job, token, event, update, outcome.changes ?? {});
    return recorded ? { result: "done", update } : { result: "lost" };
  }
  const first = parseTimestamp(attempt.firstAttemptAt) ?? now;
  const next = outcome.permanent
    ? null
    : nextAttemptAt(first, attempt.attempts, now, deps.random, outcome.retryAfter ?? null, deps.policy);
  const update: OutboxJobUpdate = {
    ...attempt,
    ...(next ? { body } : {}),
    status: next ? "pending" : "dead",
    nextAttemptAt: next ? formatTimestamp(next) : job.nextAttemptAt,
    lastError: outcome.error,
    lastStatus: outcome.status ?? null,
  };
  if (!(await storage.finishJob(job.id, token, update, outcome.changes))) return { result: "lost" };
  return { result: next ? "retry" : "dead", update };
}

/**
 * The update that ends a claim and changes nothing else (the kept body stays): for a job
 * claimed but not attempted.
 */
export function releasedUpdate(job: OutboxJob): OutboxJobUpdate {
  const { body: _body, ...same } = _same(job, {});
  return same;
}

// --- internal ---

/** The job's fields as they are, with `over` on top. */
function _same(job: OutboxJob, over: Partial<OutboxJobUpdate>): OutboxJobUpdate {
  return {
    body: null,
    status: job.status,
    attempts: job.attempts,
    nextAttemptAt: job.nextAttemptAt,
    firstAttemptAt: job.firstAttemptAt,
    lastError: job.lastError,
    lastStatus: job.lastStatus,
    ...over,
  };
}

async function _hold(deps: AttemptDeps, job: OutboxJob, token: string, why: string): Promise<{ result: AttemptResult; update?: OutboxJobUpdate }> {
  const update = _same(job, { status: "held", lastError: why });
  return (await deps.engine.context.storage.finishJob(job.id, token, update)) ? { result: "held", update } : { result: "lost" };
}

async function _give(deps: AttemptDeps, job: OutboxJob, token: string, why: string): Promise<{ result: AttemptResult; update?: OutboxJobUpdate }> {
  const update = _same(job, { status: "dead", lastError: why });
  return (await deps.engine.context.storage.finishJob(job.id, token, update)) ? { result: "dead", update } : { result: "lost" };
}

/**
 * The context record (any state, if it still exists) and its contact. A payment's contact
 * is one step further: `relatedContactUri` names the record it pays for (a membership, a
 * ticket, ...), whose own contact field leads to the person.
 */
async function _related(engine: RecordEngine, event: StoredRecord): Promise<{ record?: StoredRecord; contact?: StoredRecord }> {
  const storage = engine.context.storage;
  const ref = typeof event.data.context_ref === "string" ? parseRecordUri(event.data.context_ref) : undefined;
  if (!ref || ref.flock !== event.flock) return {};
  const record = await storage.getRecord(ref.flock, ref.type, ref.id);
  if (!record) return {};
  let contactUri = relatedContactUri(record);
  if (contactUri && !isContactUri(contactUri)) {
    const via = await _load(engine, contactUri);
    contactUri = via ? relatedContactUri(via) : null;
    if (contactUri && !isContactUri(contactUri)) contactUri = null; // one step only
  }
  if (!contactUri) return { record };
  const c = parseRecordUri(contactUri)!;
  if (c.type === record.type && c.id === record.id) return { record, contact: record };
  const contact = await _load(engine, contactUri);
  return contact ? { record, contact } : { record };
}

async function _load(engine: RecordEngine, uri: string): Promise<StoredRecord | undefined> {
  const u = parseRecordUri(uri);
  return u ? engine.context.storage.getRecord(u.flock, u.type, u.id) : undefined;
}

/**
 * Records a success with the action's tag on the data event. If the data event changed
 * since it was read (a client edited it), reads it again and retries, so a delivered
 * action is not repeated for want of a tag.
 */
async function _finishDone(
  deps: AttemptDeps,
  job: OutboxJob,
  token: string,
  event: StoredRecord,
  update: OutboxJobUpdate,
  changes: ChangeSet,
): Promise<boolean> {
  const storage = deps.engine.context.storage;
  let current = event;
  for (let i = 0; ; i++) {
    const now = formatTimestamp(deps.clock.now());
    const tagged: StoredRecord = {
      ...current,
      data: { ...current.data, tags: tagsWithAction(current.data, job.action) },
      lastUpdated: now,
      version: current.version + 1,
    };
    try {
      return await storage.finishJob(job.id, token, update, {
        ...changes,
        records: [...(changes.records ?? []), updateWrite(current, tagged)],
      });
    } catch (e) {
      if (!isRecordsError(e) || e.code !== "conflict" || i >= TAG_RETRIES) throw e;
      const again = await storage.getRecord(job.flock, DATA_EVENT_TYPE, job.dataEventId);
      if (!again) throw e;
      current = again;
    }
  }
}
