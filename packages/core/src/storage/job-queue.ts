/**
 * @module storage/job-queue
 * The outbox: actions to run (webhooks, email), queued by `apply` with the data events
 * that caused them, claimed by workers of any process, finished with their outcome.
 */
import type { ChangeSet } from "../model/change-set.js";
import type { OutboxJob, OutboxStatus } from "../model/outbox.js";

/**
 * A worker's hold on the jobs one `claimDueJobs` call returns: a claimed job is not
 * returned again (to this or any other process) until `until` has passed, and only the
 * holder of `token` can record its outcome.
 */
export interface JobClaim {
  /** Unique per claim (random, at least 16 characters): what `finishJob` and `renewJobClaims` name. */
  token: string;
  /** Timestamp (spec format) at which the claim lapses unless renewed. */
  until: string;
}

/** What `finishJob` records about an attempt. */
export interface OutboxJobUpdate {
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  firstAttemptAt: string | null;
  lastError: string | null;
  lastStatus?: number | null;
  /** Sets the kept request body; left as it is when undefined. */
  body?: string | null;
  /**
   * Keeps the claim after this write (a write in the middle of an attempt, such as the
   * kept body); by default `finishJob` ends the claim.
   */
  keepClaim?: boolean;
}

/** Which jobs `listJobs` returns (newest first). */
export interface OutboxJobFilter {
  flock?: string;
  status?: OutboxStatus;
  /** At most this many; default 100. */
  limit?: number;
}

/** The outbox at a glance, for metrics: one read of the whole database. */
export interface OutboxStats {
  /** Jobs by status, `done` left out (it only grows); a status without jobs may be absent. */
  byStatus: Partial<Record<OutboxStatus, number>>;
  /** `nextAttemptAt` of the earliest pending job due at or before `now`; null when none is due. */
  oldestDueAt: string | null;
}

/** Outbox jobs and the claims workers hold on them. */
export interface JobQueue {
  /**
   * Claims up to `limit` pending jobs whose `nextAttemptAt` is at or before `now` and that
   * no live claim holds (none, or its `claimedUntil` is at or before `now`), the earliest
   * due first (ties by id), and returns them with `claimedUntil` set to `claim.until`.
   * Atomic against every other caller on the database (SQLite: a conditional update in an
   * immediate transaction; PostgreSQL: `FOR UPDATE SKIP LOCKED`): two processes never get
   * the same job while a claim lives. A claim whose holder died lapses at `until`, and the
   * job is then claimed again (with its same delivery id).
   */
  claimDueJobs(now: string, limit: number, claim: JobClaim): Promise<OutboxJob[]>;
  /**
   * Moves the lapse time of every job still held under one of `tokens` to `until` (a long
   * attempt keeps its claim); returns how many jobs it renewed.
   */
  renewJobClaims(tokens: readonly string[], until: string): Promise<number>;
  /**
   * Records an attempt's outcome on job `id`, held under the claim `token`, and applies
   * `changes` (the data event's new tag, a journal record) in the same transaction; the
   * claim ends unless `update.keepClaim`. Resolves false, applying nothing, when the job
   * is no longer held under `token` (its claim lapsed and another worker claimed it: that
   * worker's outcome is the one recorded). Throws `RecordsError("not_found")` for an
   * unknown job and `RecordsError("conflict")` when `changes` conflict; either way nothing
   * is applied.
   */
  finishJob(id: string, token: string, update: OutboxJobUpdate, changes?: ChangeSet): Promise<boolean>;
  /** Jobs for operators, newest first. */
  listJobs(filter: OutboxJobFilter): Promise<OutboxJob[]>;
  /**
   * How many jobs there are of each status other than `done`, and when the earliest pending
   * job due at `now` fell due: what metrics report (read once per scrape, not per request).
   */
  outboxStats(now: string): Promise<OutboxStats>;
  /**
   * Held jobs of `flock` for `trigger` and `action` (their trigger is configured and active
   * again) become pending and due at `now`, unclaimed, with `firstAttemptAt` cleared so the
   * retry window starts afresh (time spent held is not the receiver's); attempts and last
   * error are kept. One statement, so any number of processes may call it at once; returns
   * how many jobs it resumed.
   */
  resumeHeldJobs(flock: string, trigger: string, action: string, now: string): Promise<number>;
  /**
   * An operator's "retry now": job `id` of `flock`, pending, held or dead, becomes pending and due
   * at `now` (its attempts and last error kept). Resolves the job as it now is; "claimed"
   * when a live claim holds it (an attempt is running: nothing changes); undefined when
   * the flock has no such job or it was delivered (done).
   */
  retryJob(flock: string, id: string, now: string): Promise<OutboxJob | "claimed" | undefined>;
}
