/**
 * @module outbox
 * The outbox table's statements: insert (inside `apply`'s transaction), the workers' claim
 * of due jobs (by `outbox_due_idx`, `FOR UPDATE SKIP LOCKED`, so processes sharing the
 * database take disjoint jobs without waiting on each other), its renewal, an attempt's
 * outcome (only under its claim), the operators' listing and the counts metrics read.
 */
import { conflict, type JobClaim, type OutboxJob, type OutboxJobFilter, type OutboxJobUpdate, type OutboxStats, type OutboxStatus } from "@records-service/core";
import { byDueThenId, finishOutcome, jobCount, jobFromRow, outboxStatsOf, OUTBOX_COLUMNS, retryOutcome, type OutboxRow } from "@records-service/sql";
import { sql } from "drizzle-orm";
import { exec, type Conn } from "./exec.js";
import { decodeOpt, encodeOpt } from "./text-codec.js";

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

/**
 * Claims up to `limit` pending, due, unclaimed jobs under `claim`, earliest due first (ties
 * by id). Rows another transaction is claiming are skipped, not waited for; a row claimed
 * meanwhile is re-checked under its lock (its new `claimed_until` no longer qualifies).
 */
export async function claimDueJobs(c: Conn, now: string, limit: number, claim: JobClaim): Promise<OutboxJob[]> {
  const n = jobCount(limit);
  if (n === 0) return [];
  const { rows } = await exec<OutboxRow>(
    c,
    sql`UPDATE outbox SET claim_token = ${claim.token}, claimed_until = ${claim.until}
        WHERE seq IN (
          SELECT seq FROM outbox
          WHERE status = 'pending' AND next_attempt_at <= ${now} AND (claimed_until IS NULL OR claimed_until <= ${now})
          ORDER BY next_attempt_at, id LIMIT ${n}
          FOR UPDATE SKIP LOCKED)
        RETURNING ${_COLUMNS}`,
    "claim_jobs",
  );
  return rows.map(_job).sort(byDueThenId);
}

/** Moves the lapse of the jobs held under `tokens` to `until`; how many it moved. */
export async function renewJobClaims(c: Conn, tokens: readonly string[], until: string): Promise<number> {
  if (tokens.length === 0) return 0;
  const res = await exec(c, sql`UPDATE outbox SET claimed_until = ${until} WHERE claim_token = ANY(${sql.param([...new Set(tokens)])}::text[])`, "renew_jobs");
  return res.rowCount;
}

/**
 * Writes an attempt's outcome on `c` while the job is held under `token`: "ok", "lost"
 * (another claim or none holds it) or "missing" (no such job).
 */
export async function finishJobRow(c: Conn, id: string, token: string, u: OutboxJobUpdate): Promise<"ok" | "lost" | "missing"> {
  const keep = u.body === undefined;
  const keepClaim = u.keepClaim === true;
  const res = await exec(
    c,
    sql`UPDATE outbox SET status = ${u.status}, attempts = ${u.attempts}, next_attempt_at = ${u.nextAttemptAt},
          first_attempt_at = ${u.firstAttemptAt}, last_error = ${encodeOpt(u.lastError)}, last_status = ${u.lastStatus ?? null},
          body = CASE WHEN ${keep}::boolean THEN body ELSE ${encodeOpt(u.body)} END,
          claim_token = CASE WHEN ${keepClaim}::boolean THEN claim_token END,
          claimed_until = CASE WHEN ${keepClaim}::boolean THEN claimed_until END
        WHERE id = ${id} AND claim_token = ${token}`,
    "finish_job",
  );
  const exists = res.rowCount > 0 || (await exec(c, sql`SELECT 1 FROM outbox WHERE id = ${id}`, "job_exists")).rows.length > 0;
  return finishOutcome(res.rowCount > 0, () => exists);
}

/** See `Storage.resumeHeldJobs`: one statement, so processes resuming at once resume each job once. */
export async function resumeHeldJobs(c: Conn, flock: string, trigger: string, action: string, now: string): Promise<number> {
  const res = await exec(
    c,
    sql`UPDATE outbox SET status = 'pending', next_attempt_at = ${now}, first_attempt_at = NULL, claim_token = NULL, claimed_until = NULL
        WHERE status = 'held' AND flock = ${flock} AND "trigger" = ${trigger} AND action = ${action}`,
    "resume_held_jobs",
  );
  return res.rowCount;
}

/** See `Storage.retryJob`: one statement, so a claim taken meanwhile is seen under the row's lock. */
export async function retryJob(c: Conn, flock: string, id: string, now: string): Promise<OutboxJob | "claimed" | undefined> {
  const { rows } = await exec<OutboxRow>(
    c,
    sql`UPDATE outbox SET status = 'pending', next_attempt_at = ${now}, claim_token = NULL, claimed_until = NULL
        WHERE id = ${id} AND flock = ${flock} AND status <> 'done' AND (claimed_until IS NULL OR claimed_until <= ${now})
        RETURNING ${_COLUMNS}`,
    "retry_job",
  );
  if (rows[0]) return retryOutcome(_job(rows[0]), rows[0].status);
  const held = await exec<{ status: string }>(c, sql`SELECT status FROM outbox WHERE id = ${id} AND flock = ${flock}`, "retry_job_status");
  return retryOutcome(undefined, held.rows[0]?.status);
}

/** Jobs newest first, optionally of one flock and status. */
export async function listJobs(c: Conn, filter: OutboxJobFilter): Promise<OutboxJob[]> {
  const where = [
    filter.flock !== undefined ? sql`flock = ${filter.flock}` : undefined,
    filter.status !== undefined ? sql`status = ${filter.status}` : undefined,
  ].filter((w) => w !== undefined);
  const limit = jobCount(filter.limit);
  const { rows } = await exec<OutboxRow>(
    c,
    sql`SELECT ${_COLUMNS} FROM outbox ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``} ORDER BY seq DESC LIMIT ${limit}`,
    `list_jobs_${filter.flock !== undefined}_${filter.status !== undefined}`,
  );
  return rows.map(_job);
}

/** See `Storage.outboxStats`: one statement, so both parts read one snapshot. */
export async function outboxStats(c: Conn, now: string): Promise<OutboxStats> {
  const { rows } = await exec<{ status: OutboxStatus | null; n: string; oldest: string | null }>(
    c,
    sql`SELECT status, count(*) AS n, NULL AS oldest FROM outbox WHERE status <> 'done' GROUP BY status
        UNION ALL
        SELECT NULL, 0, min(next_attempt_at) FROM outbox WHERE status = 'pending' AND next_attempt_at <= ${now}`,
    "outbox_stats",
  );
  const counts = rows.filter((r): r is typeof r & { status: OutboxStatus } => r.status !== null);
  return outboxStatsOf(counts, rows.find((r) => r.status === null)?.oldest ?? null);
}

// --- internal ---

const _COLUMNS = sql.raw(OUTBOX_COLUMNS);

function _job(r: OutboxRow): OutboxJob {
  return jobFromRow(r, decodeOpt);
}
