/**
 * @module outbox
 * The outbox table's statements: insert (inside `apply`'s transaction), the workers' claim
 * of due jobs (by `outbox_due_idx`, a conditional update in an immediate transaction, so
 * processes sharing the file never hold one job at once), its renewal, an attempt's
 * outcome (only under its claim), and the operators' listing.
 */
import { conflict, type JobClaim, type OutboxJob, type OutboxJobFilter, type OutboxJobUpdate, type OutboxStats, type OutboxStatus } from "@records-service/core";
import { finishOutcome, jobCount, jobFromRow, outboxStatsOf, OUTBOX_COLUMNS, retryOutcome, type OutboxRow } from "@records-service/sql";
import type Database from "better-sqlite3";

/** The outbox statements of one connection; every method is synchronous. */
export interface OutboxStore {
  /** Inserts a job; throws `conflict` when its id exists. Call inside a transaction. */
  insert(job: OutboxJob): void;
  /** Claims due, unclaimed jobs in one immediate transaction (see `Storage.claimDueJobs`). */
  claimDue(now: string, limit: number, claim: JobClaim): OutboxJob[];
  renew(tokens: readonly string[], until: string): number;
  /**
   * Writes an attempt's outcome while the job is held under `token`: "ok", "lost" (held by
   * another claim or none) or "missing" (no such job). Call inside a transaction.
   */
  finish(id: string, token: string, update: OutboxJobUpdate): "ok" | "lost" | "missing";
  list(filter: OutboxJobFilter): OutboxJob[];
  /** See `Storage.outboxStats`: both counts read in one snapshot. */
  stats(now: string): OutboxStats;
  /** See `Storage.resumeHeldJobs`. */
  resumeHeld(flock: string, trigger: string, action: string, now: string): number;
  /** See `Storage.retryJob`. */
  retry(flock: string, id: string, now: string): OutboxJob | "claimed" | undefined;
}

/** The statements over the `outbox` table. */
export function createOutboxStore(client: Database.Database): OutboxStore {
  const ins = client.prepare(
    `INSERT OR IGNORE INTO outbox (id, flock, data_event_id, "trigger", action, delivery_id, status, attempts,
       next_attempt_at, first_attempt_at, last_error, last_status, body, created)
     VALUES (@id, @flock, @dataEventId, @trigger, @action, @deliveryId, @status, @attempts,
       @nextAttemptAt, @firstAttemptAt, @lastError, @lastStatus, @body, @created)`,
  );
  const due = client.prepare<[string, string, number], OutboxRow>(
    `SELECT ${OUTBOX_COLUMNS} FROM outbox INDEXED BY outbox_due_idx
     WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
     ORDER BY next_attempt_at, id LIMIT ?`,
  );
  const take = client.prepare<[string, string, string]>("UPDATE outbox SET claim_token = ?, claimed_until = ? WHERE id = ?");
  const renewOne = client.prepare<[string, string]>("UPDATE outbox SET claimed_until = ? WHERE claim_token = ?");
  const holder = client.prepare<[string], { claim_token: string | null }>("SELECT claim_token FROM outbox WHERE id = ?");
  const upd = client.prepare(
    `UPDATE outbox SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt,
       first_attempt_at = @firstAttemptAt, last_error = @lastError, last_status = @lastStatus,
       body = CASE WHEN @keepBody THEN body ELSE @body END,
       claim_token = CASE WHEN @keepClaim THEN claim_token END,
       claimed_until = CASE WHEN @keepClaim THEN claimed_until END
     WHERE id = @id AND claim_token = @token`,
  );
  // Immediate: the write lock is taken before the read, so two processes' claims run one
  // after the other and the second sees the first's claims.
  const claimTx = client.transaction((now: string, limit: number, claim: JobClaim) => {
    const rows = due.all(now, now, limit);
    for (const r of rows) take.run(claim.token, claim.until, r.id);
    return rows.map((r) => jobFromRow({ ...r, claimed_until: claim.until }));
  });
  const renewTx = client.transaction((tokens: readonly string[], until: string) => {
    let n = 0;
    for (const t of new Set(tokens)) n += renewOne.run(until, t).changes;
    return n;
  });
  const retryOne = client.prepare<[string, string, string, string]>(
    `UPDATE outbox SET status = 'pending', next_attempt_at = ?, claim_token = NULL, claimed_until = NULL
     WHERE id = ? AND flock = ? AND status <> 'done' AND (claimed_until IS NULL OR claimed_until <= ?)`,
  );
  // By outbox_due_idx's (status) prefix: held jobs are few next to pending and done ones.
  const resumeHeldSt = client.prepare<[string, string, string, string]>(
    `UPDATE outbox SET status = 'pending', next_attempt_at = ?, first_attempt_at = NULL, claim_token = NULL, claimed_until = NULL
     WHERE status = 'held' AND flock = ? AND "trigger" = ? AND action = ?`,
  );
  const oneJob = client.prepare<[string, string], OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ? AND flock = ?`);
  const retryTx = client.transaction((flock: string, id: string, now: string): OutboxJob | "claimed" | undefined => {
    const changed = retryOne.run(now, id, flock, now).changes > 0;
    const row = oneJob.get(id, flock);
    return retryOutcome(changed && row ? jobFromRow(row) : undefined, row?.status);
  });
  const countByStatus = client.prepare<[], { status: OutboxStatus; n: number }>(
    "SELECT status, count(*) AS n FROM outbox WHERE status <> 'done' GROUP BY status",
  );
  const oldestDue = client.prepare<[string], { at: string | null }>(
    "SELECT min(next_attempt_at) AS at FROM outbox INDEXED BY outbox_due_idx WHERE status = 'pending' AND next_attempt_at <= ?",
  );
  const statsTx = client.transaction((now: string): OutboxStats => {
    return outboxStatsOf(countByStatus.all(), oldestDue.get(now)?.at ?? null);
  });
  const lists = new Map<string, Database.Statement<unknown[], OutboxRow>>();
  const listStatement = (flock: boolean, status: boolean) => {
    const key = `${flock}${status}`;
    let st = lists.get(key);
    if (!st) {
      const where = [flock ? "flock = @flock" : "", status ? "status = @status" : ""].filter(Boolean);
      st = client.prepare<unknown[], OutboxRow>(
        `SELECT ${OUTBOX_COLUMNS} FROM outbox ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT @limit`,
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
    claimDue(now, limit, claim) {
      const n = jobCount(limit);
      return n === 0 ? [] : claimTx.immediate(now, n, claim);
    },
    renew(tokens, until) {
      return tokens.length === 0 ? 0 : renewTx.immediate(tokens, until);
    },
    finish(id, token, update) {
      const keep = update.body === undefined;
      const res = upd.run({
        id,
        token,
        status: update.status,
        attempts: update.attempts,
        nextAttemptAt: update.nextAttemptAt,
        firstAttemptAt: update.firstAttemptAt,
        lastError: update.lastError,
        lastStatus: update.lastStatus ?? null,
        keepBody: keep ? 1 : 0,
        body: update.body ?? null,
        keepClaim: update.keepClaim ? 1 : 0,
      });
      return finishOutcome(res.changes > 0, () => holder.get(id) !== undefined);
    },
    resumeHeld(flock, trigger, action, now) {
      return resumeHeldSt.run(now, flock, trigger, action).changes;
    },
    retry(flock, id, now) {
      return retryTx.immediate(flock, id, now);
    },
    stats(now) {
      return statsTx(now);
    },
    list(filter) {
      const params: Record<string, unknown> = { limit: jobCount(filter.limit) };
      if (filter.flock !== undefined) params.flock = filter.flock;
      if (filter.status !== undefined) params.status = filter.status;
      return listStatement(filter.flock !== undefined, filter.status !== undefined)
        .all(params)
        .map((r) => jobFromRow(r));
    },
  };
}
