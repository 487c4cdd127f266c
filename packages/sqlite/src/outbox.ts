/**
 * @module outbox
 * The outbox table's statements: insert (inside `apply`'s transaction), the worker's claim
 * of due jobs (by `outbox_due_idx`), an attempt's outcome, and the operators' listing.
 */
import { conflict, type OutboxJob, type OutboxJobFilter, type OutboxJobUpdate, type OutboxStatus } from "@records-service/core";
import type Database from "better-sqlite3";

/** The outbox statements of one connection; every method is synchronous. */
export interface OutboxStore {
  /** Inserts a job; throws `conflict` when its id exists. Call inside a transaction. */
  insert(job: OutboxJob): void;
  claimDue(now: string, limit: number): OutboxJob[];
  /** Writes an attempt's outcome; false when there is no such job. */
  finish(id: string, update: OutboxJobUpdate): boolean;
  list(filter: OutboxJobFilter): OutboxJob[];
}

/** Default and largest page of `list`. */
export const DEFAULT_JOB_LIST_LIMIT = 100;

/** The statements over the `outbox` table. */
export function createOutboxStore(client: Database.Database): OutboxStore {
  const ins = client.prepare(
    `INSERT OR IGNORE INTO outbox (id, flock, data_event_id, "trigger", action, delivery_id, status, attempts,
       next_attempt_at, first_attempt_at, last_error, last_status, body, created)
     VALUES (@id, @flock, @dataEventId, @trigger, @action, @deliveryId, @status, @attempts,
       @nextAttemptAt, @firstAttemptAt, @lastError, @lastStatus, @body, @created)`,
  );
  const claim = client.prepare<[string, number], _Row>(
    `SELECT ${_COLUMNS} FROM outbox INDEXED BY outbox_due_idx
     WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
  );
  const upd = client.prepare(
    `UPDATE outbox SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt,
       first_attempt_at = @firstAttemptAt, last_error = @lastError, last_status = @lastStatus,
       body = CASE WHEN @keepBody THEN body ELSE @body END WHERE id = @id`,
  );
  const lists = new Map<string, Database.Statement<unknown[], _Row>>();
  const listStatement = (flock: boolean, status: boolean) => {
    const key = `${flock}${status}`;
    let st = lists.get(key);
    if (!st) {
      const where = [flock ? "flock = @flock" : "", status ? "status = @status" : ""].filter(Boolean);
      st = client.prepare<unknown[], _Row>(
        `SELECT ${_COLUMNS} FROM outbox ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT @limit`,
      );
      lists.set(key, st);
    }
    return st;
  };

  return {
    insert(job) {
      const res = ins.run({ ...job, lastStatus: job.lastStatus ?? null, body: job.body ?? null });
      if (res.changes === 0) throw conflict("job exists", `an outbox job with id '${job.id}' exists`);
    },
    claimDue(now, limit) {
      return claim.all(now, Math.max(0, Math.floor(limit))).map(_job);
    },
    finish(id, update) {
      const keep = update.body === undefined;
      return upd.run({ id, ...update, lastStatus: update.lastStatus ?? null, keepBody: keep ? 1 : 0, body: update.body ?? null }).changes > 0;
    },
    list(filter) {
      const params: Record<string, unknown> = { limit: Math.max(0, Math.floor(filter.limit ?? DEFAULT_JOB_LIST_LIMIT)) };
      if (filter.flock !== undefined) params.flock = filter.flock;
      if (filter.status !== undefined) params.status = filter.status;
      return listStatement(filter.flock !== undefined, filter.status !== undefined)
        .all(params)
        .map(_job);
    },
  };
}

// --- internal ---

const _COLUMNS = `id, flock, data_event_id, "trigger", action, delivery_id, status, attempts, next_attempt_at,
  first_attempt_at, last_error, last_status, body, created`;

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
    lastError: r.last_error,
    lastStatus: r.last_status,
    body: r.body,
    created: r.created,
  };
}
