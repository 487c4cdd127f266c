/**
 * @module outbox-rows
 * The outbox table as both SQL adapters read it: the columns a job is selected with, the
 * row's shape, and the row as core's `OutboxJob`. The claim token stays in the database:
 * only `claimedUntil` is shown.
 */
import type { OutboxJob, OutboxStats, OutboxStatus } from "@records-service/core";

/** The columns `jobFromRow` reads, in SELECT order. */
export const OUTBOX_COLUMNS = `id, flock, data_event_id, "trigger", action, delivery_id, status, attempts, next_attempt_at,
  first_attempt_at, last_error, last_status, body, created, claimed_until`;

/** One outbox row as selected with `OUTBOX_COLUMNS`. */
export interface OutboxRow {
  id: string;
  flock: string;
  data_event_id: string;
  trigger: string;
  action: string;
  delivery_id: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  first_attempt_at: string | null;
  last_error: string | null;
  last_status: number | null;
  body: string | null;
  created: string;
  claimed_until: string | null;
}

/**
 * The job a row holds; `decode` turns stored free text (the last error, the body) back
 * into what was written (PostgreSQL escapes what its text type cannot hold).
 *
 * @example
 * rows.map((r) => jobFromRow(r));
 */
export function jobFromRow(r: OutboxRow, decode: (text: string | null) => string | null = (t) => t): OutboxJob {
  return {
    id: r.id,
    flock: r.flock,
    dataEventId: r.data_event_id,
    trigger: r.trigger,
    action: r.action,
    deliveryId: r.delivery_id,
    status: r.status as OutboxStatus,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    firstAttemptAt: r.first_attempt_at,
    lastError: decode(r.last_error),
    lastStatus: r.last_status,
    body: decode(r.body),
    created: r.created,
    claimedUntil: r.claimed_until,
  };
}

/** Sorts claimed jobs as `claimDueJobs` returns them: earliest due first, ties by id. */
export function byDueThenId(a: OutboxJob, b: OutboxJob): number {
  return _cmp(a.nextAttemptAt, b.nextAttemptAt) || _cmp(a.id, b.id);
}

/** Default and largest page of a job listing. */
export const DEFAULT_JOB_LIST_LIMIT = 100;

/** How many jobs a claim or a listing asks for: whole, not negative (`fallback` when not given). */
export function jobCount(limit: number | undefined, fallback = DEFAULT_JOB_LIST_LIMIT): number {
  return Math.max(0, Math.floor(limit ?? fallback));
}

/**
 * What `Storage.retryJob` answers: the job when it was made pending again, else
 * `"claimed"` while a worker holds it, undefined when it is missing or done.
 */
export function retryOutcome(retried: OutboxJob | undefined, status: string | undefined): OutboxJob | "claimed" | undefined {
  if (retried) return retried;
  return status === undefined || status === "done" ? undefined : "claimed";
}

/** What finishing an attempt answers: "ok" when written under the claim, else "lost" or "missing". */
export function finishOutcome(written: boolean, exists: () => boolean): "ok" | "lost" | "missing" {
  if (written) return "ok";
  return exists() ? "lost" : "missing";
}

/** The outbox counts as `Storage.outboxStats` answers them. */
export function outboxStatsOf(counts: Iterable<{ status: OutboxStatus; n: number | string }>, oldestDueAt: string | null): OutboxStats {
  const byStatus: OutboxStats["byStatus"] = {};
  for (const c of counts) byStatus[c.status] = Number(c.n);
  return { byStatus, oldestDueAt };
}

// --- internal ---

function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
