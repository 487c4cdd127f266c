/**
 * @module routes/outbox
 * `GET /:flock/outbox/`: the flock's queued and finished actions (webhook deliveries,
 * emails) with their attempts, newest first, for operators. Administrator keys only
 * (users whose flocks are `["*"]`): receivers' errors can reveal integration details that a
 * flock's staff key need not see. `POST /:flock/outbox/:id/retry/` makes a pending, held
 * or dead job due now (one more attempt; the worker's rules then apply as to any attempt).
 */
import { badRequest, conflict, formatTimestamp, notFound, recordUri, RecordsError, type Clock, type JobQueue, type OutboxJob, type OutboxStatus } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { isAdmin } from "../auth/access.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";

/** Jobs per answer: default and most. */
const OUTBOX_LIST_DEFAULT = 100;
const OUTBOX_LIST_MAX = 1000;

const _STATUSES: readonly OutboxStatus[] = ["pending", "held", "done", "dead"];

/**
 * The outbox route. Query: `status` (`pending`, `held`, `done`, `dead`; a held job's
 * `last_error` says why it is held), `limit` (1 to 1000,
 * default 100). Answer: `{"jobs": [{id, delivery_id, trigger, action, data_event, status,
 * attempts, next_attempt_at, first_attempt_at, last_error, last_status, created}]}`.
 *
 * @example
 * const routes = outboxRoutes(storage, clock, guards); route(app, "GET", "/api/v1/:flock/outbox", routes.getOutbox);
 */
export function outboxRoutes(outbox: Pick<JobQueue, "listJobs" | "retryJob">, clock: Clock, guards: RouteGuards) {
  const guard = [guards.requireKey(), guards.requireFlock] as const;

  return {
    getOutbox: [describeGetOutbox(), ...guard, getOutbox],
    postOutboxIdRetry: [describePostOutboxIdRetry(), ...guard, postOutboxIdRetry],
  } as const;

  function describeGetOutbox(): MiddlewareHandler {
    return documented({
      tag: "events",
      summary: "The flock's webhook and email deliveries",
      auth: "admin",
      query: [
        queryParam("status", "pending, held, done or dead", { type: "string", enum: ["pending", "held", "done", "dead"] }),
        queryParam(`limit`, `1 to ${OUTBOX_LIST_MAX} (default ${OUTBOX_LIST_DEFAULT})`, { type: "integer", minimum: 1, maximum: OUTBOX_LIST_MAX }),
      ],
      ok: { status: 200, description: "the jobs, newest first", schema: "OutboxJobs" },
      errors: [400, 403, 404],
    });
  }

  async function getOutbox(c: Context<AppEnv, "/:flock/outbox">) {
    _requireAdmin(c.get("user"));
    const flock = c.req.param("flock");
    const status = _status(c.req.query("status"));
    const limit = _limit(c.req.query("limit"));
    const jobs = await outbox.listJobs({ flock, limit, ...(status ? { status } : {}) });
    return c.json({ jobs: jobs.map(jobView) });
  }

  function describePostOutboxIdRetry(): MiddlewareHandler {
    return documented({
      tag: "events",
      summary: "Retry a pending, held or dead delivery now (the console's \"Retry now\")",
      auth: "admin",
      ok: { status: 200, description: "the job, pending and due now", schema: "OutboxJobRetried" },
      errors: [403, 404, 409],
    });
  }

  async function postOutboxIdRetry(c: Context<AppEnv, "/:flock/outbox/:id/retry">) {
    _requireAdmin(c.get("user"));
    const flock = c.req.param("flock");
    const id = c.req.param("id");
    const job = await outbox.retryJob(flock, id, formatTimestamp(clock.now()));
    if (job === undefined) throw notFound("unknown job", `flock ${JSON.stringify(flock)} has no pending, held or dead outbox job ${JSON.stringify(id.slice(0, 40))}`);
    if (job === "claimed") throw conflict("job in progress", `job ${id} is being attempted by a server process right now; its outcome decides what comes next`);
    return c.json({ job: jobView(job) });
  }
}

/** One job as the route and the `jobs` command show it. */
function jobView(j: OutboxJob): Record<string, unknown> {
  return {
    id: j.id,
    delivery_id: j.deliveryId,
    trigger: j.trigger,
    action: j.action,
    data_event: recordUri(j.flock, "data_event", j.dataEventId),
    status: j.status,
    attempts: j.attempts,
    next_attempt_at: j.status === "pending" ? j.nextAttemptAt : null,
    first_attempt_at: j.firstAttemptAt,
    last_error: j.lastError,
    last_status: j.lastStatus,
    created: j.created,
  };
}

// --- internal ---

function _requireAdmin(user: Parameters<typeof isAdmin>[0]): void {
  if (!isAdmin(user)) {
    throw new RecordsError(
      "forbidden",
      "forbidden",
      'the outbox is served to administrator keys only: a user whose flocks are ["*"]; listing every flock by name is not enough',
    );
  }
}

function _status(raw: string | undefined): OutboxStatus | undefined {
  if (raw === undefined || raw === "") return undefined;
  if ((_STATUSES as readonly string[]).includes(raw)) return raw as OutboxStatus;
  throw badRequest("invalid status", `status must be one of ${_STATUSES.join(", ")}, not ${JSON.stringify(raw.slice(0, 40))}`);
}

function _limit(raw: string | undefined): number {
  if (raw === undefined || raw === "") return OUTBOX_LIST_DEFAULT;
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= OUTBOX_LIST_MAX)) {
    throw badRequest("invalid limit", `limit must be an integer from 1 to ${OUTBOX_LIST_MAX}, not ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return n;
}
