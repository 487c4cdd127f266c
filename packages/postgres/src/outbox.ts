/**
 * @module outbox
 * The outbox table's statements: insert (inside `apply`'s transaction), the worker's claim
 * of due jobs (by `outbox_due_idx`), an attempt's outcome, and the operators' listing.
 * Claiming reads without locking, as on SQLite: one worker per database (issue 10 makes
 * claims safe across processes; `FOR UPDATE SKIP LOCKED` on the claim is the natural step).
 */
import { conflict, type OutboxJob, type OutboxJobFilter, type OutboxJobUpdate, type OutboxStatus } from "@records-service/core";
import { sql } from "drizzle-orm";
import { exec, type Conn } from "./exec.js";
import { decodeOpt, encodeOpt } from "./text-codec.js";

/** Default number of jobs `listJobs` returns. */
export const DEFAULT_JOB_LIST_LIMIT = 100;

/** Inserts a job on `c` (inside a transaction); throws `conflict` when its id exists. */
export async function insertJob(c: Conn, job: OutboxJob): Promise<void> {
  const res = await exec(
    c,
    sql`INSERT INTO outbox (id, flock, data_event_id, "trigger", action, delivery_id, status, attempts,
          next_attempt_at, first_attempt_at, last_error, last_status, body, created)
        VALUES (${job.id}, ${job.flock}, ${job.dataEventId}, ${job.trigger}, ${job.action}, ${job.deliveryId}, ${job.status},
          ${job.attempts}, ${job.nextAttemptAt}, ${job.firstAttemptAt}, ${encodeOpt(job.lastError)}, ${job.lastStatus ?? null},
          ${encodeOpt(job.body)}, ${job.created})
        ON CONFLICT DO NOTHING`,
    "insert_job",
  );
  if (res.rowCount === 0) throw conflict("job exists", `an outbox job with id '${job.id}' exists`);
}

/** Up to `limit` pending jobs due at `now`, earliest first (ties by id). */
export async function claimDueJobs(c: Conn, now: string, limit: number): Promise<OutboxJob[]> {
  const { rows } = await exec<_Row>(
    c,
    sql`SELECT ${_COLUMNS} FROM outbox WHERE status = 'pending' AND next_attempt_at <= ${now}
        ORDER BY next_attempt_at, id LIMIT ${Math.max(0, Math.floor(limit))}`,
    "claim_jobs",
  );
  return rows.map(_job);
}

/** Writes an attempt's outcome on `c`; false when there is no such job. */
export async function finishJobRow(c: Conn, id: string, u: OutboxJobUpdate): Promise<boolean> {
  const keep = u.body === undefined;
  const res = await exec(
    c,
    sql`UPDATE outbox SET status = ${u.status}, attempts = ${u.attempts}, next_attempt_at = ${u.nextAttemptAt},
          first_attempt_at = ${u.firstAttemptAt}, last_error = ${encodeOpt(u.lastError)}, last_status = ${u.lastStatus ?? null},
          body = CASE WHEN ${keep}::boolean THEN body ELSE ${encodeOpt(u.body)} END
        WHERE id = ${id}`,
    "finish_job",
  );
  return res.rowCount > 0;
}

/** Jobs newest first, optionally of one flock and status. */
export async function listJobs(c: Conn, filter: OutboxJobFilter): Promise<OutboxJob[]> {
  const where = [
    filter.flock !== undefined ? sql`flock = ${filter.flock}` : undefined,
    filter.status !== undefined ? sql`status = ${filter.status}` : undefined,
  ].filter((w) => w !== undefined);
  const limit = Math.max(0, Math.floor(filter.limit ?? DEFAULT_JOB_LIST_LIMIT));
  const { rows } = await exec<_Row>(
    c,
    sql`SELECT ${_COLUMNS} FROM outbox ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``} ORDER BY seq DESC LIMIT ${limit}`,
    `list_jobs_${filter.flock !== undefined}_${filter.status !== undefined}`,
  );
  return rows.map(_job);
}

// --- internal ---

const _COLUMNS = sql.raw(`id, flock, data_event_id, "trigger", action, delivery_id, status, attempts, next_attempt_at,
  first_attempt_at, last_error, last_status, body, created`);

interface _Row {
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
}

function _job(r: _Row): OutboxJob {
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
    lastError: decodeOpt(r.last_error),
    lastStatus: r.last_status,
    body: decodeOpt(r.body),
    created: r.created,
  };
}
