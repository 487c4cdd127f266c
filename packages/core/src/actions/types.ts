/**
 * @module actions/types
 * The one interface every action implements. The outbox worker claims a due job, loads
 * what the action needs into an `ActionRunContext`, calls `run`, and records the
 * `ActionOutcome`: on success it applies the outcome's changes together with the data
 * event's action tag, on failure it schedules a retry or gives up.
 */
import type { FlockRow } from "../model/account.js";
import type { ChangeSet } from "../model/change-set.js";
import type { OutboxJob } from "../model/outbox.js";
import type { StoredRecord } from "../model/record.js";
import type { TriggerAction, TriggerConfig } from "../triggers/config.js";

/**
 * The webhook body the contract fixes: `data` is the context record in the single-record
 * envelope (null for an event about no record), `contact` the related person's data (or null).
 */
export interface WebhookPayload {
  /** The trigger name (`contact_created`). */
  trigger: string;
  /** The event name (`contact`). */
  event: string;
  /** The flock identifier. */
  flock: string;
  data: Record<string, unknown> | null;
  contact: Record<string, unknown> | null;
}

/** Everything an action gets for one attempt. */
export interface ActionRunContext {
  job: OutboxJob;
  trigger: TriggerConfig;
  /** The data_event record the action runs for. */
  dataEvent: StoredRecord;
  /** The record the event is about (its `context_ref`), when there is one and it still exists. */
  record?: StoredRecord;
  /**
   * The related person (or organisation): the context record itself when it is one, else
   * the first of its `member`, `person_ref`, `buyer_ref`, `contact_ref`, `person` fields
   * that references one (see `relatedContactUri`).
   */
  contact?: StoredRecord;
  flock: FlockRow;
  /**
   * The secret in force. Actions never sign with it: they derive a key per purpose (the
   * server's webhook action signs with the flock's webhook key, HKDF of this secret).
   */
  secret: string;
  /** The time of this attempt. */
  now: Date;
  /** The webhook body as built for this attempt from the records above. */
  payload: WebhookPayload;
  /**
   * The bytes to send: the body of the job's first attempt when there was one (kept in the
   * outbox), else `JSON.stringify(payload)`; so every attempt sends identical bytes.
   */
  body: string;
  /** Aborted when the server shuts down mid-attempt; the job then stays pending. */
  signal?: AbortSignal;
}

/**
 * What one attempt came to. Success may carry changes to commit with the action's tag
 * (e.g. a journal record) and the HTTP status that counted as delivered. Failure: `status` is the HTTP status when there was an answer,
 * `retryAfter` the receiver's `Retry-After`, `permanent` gives up without retrying (e.g.
 * a template that no longer exists); failure `changes` (e.g. a journal record of the failed
 * email) commit with the job's new state.
 */
export type ActionOutcome =
  | { ok: true; changes?: ChangeSet; status?: number }
  | { ok: false; error: string; status?: number; retryAfter?: string; permanent?: boolean; changes?: ChangeSet };

/** One action. */
export interface ActionHandler {
  action: TriggerAction;
  run(ctx: ActionRunContext): Promise<ActionOutcome>;
}
