/**
 * @module routes/status
 * Liveness and readiness probes, without authentication: `GET /ping` (the process
 * answers) and `GET /health` (the database answers too, and what runs where: this process's
 * workers and the shared work's lease holders). Nothing in them is a record, key or setting:
 * task leases are shown without their flock and task id.
 */
import { hostname } from "node:os";
import { formatTimestamp, listLeases, type Clock, type LeaseInfo, type SharedState } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/env.js";
import { documented } from "../openapi/describe.js";

/** What `/health` reports beyond the database (all optional). */
export interface HealthOptions {
  /** The service's clock (lease expiry is counted in it); default the system's. */
  clock?: Clock;
  /** The workers running in this process, by name (read per request). Default none. */
  workers?: () => readonly string[];
}

/** One lease holder as `/health` shows it. */
interface HealthLease {
  /** `scheduler`, `task` (a bulk action or other long task), or another worker's lease. */
  name: string;
  /** The holder: `host:pid:id` of the process (see `processLeaseOwner`). */
  holder: string;
  /** Whether this process holds it. */
  this_process: boolean;
  expires_at: string;
}

/** Longest list of leases `/health` shows. */
const HEALTH_MAX_LEASES = 100;

/**
 * Routes `GET /ping` → `{"message":"pong"}` and `GET /health` → `{"message":"ok", database,
 * process, leases}`, or 503 `{error, error_detail, database, process}` when storage does not
 * answer.
 *
 * @example
 * const routes = statusRoutes(shared, { clock, workers: () => group.names }); route(app, "GET", "/api/v1/ping", routes.pingRoute);
 */
export function statusRoutes(shared: SharedState, opts: HealthOptions = {}) {

  return {
    pingRoute: [describePingRoute(), pingRoute],
    healthRoute: [describeHealthRoute(), healthRoute],
  } as const;

  function describePingRoute(): MiddlewareHandler {
    return documented({ tag: "status", summary: "Liveness", auth: "none", ok: { status: 200, description: "{\"message\": \"pong\"}", schema: "Message" }, errors: [] });
  }

  function pingRoute(c: Context<AppEnv, "/ping">) {
    return c.json({ message: "pong" });
  }

  function describeHealthRoute(): MiddlewareHandler {
    return documented({
      tag: "status",
      summary: "Health: the database answers; this process's workers; who holds the shared work",
      description:
        "`message` is \"ok\" when the database answers (503 when it does not). `process` is the process that answered (its pid and the background workers it runs); `leases` the live leases on shared work (the scheduler's run, each running task) with the process holding each and when it lapses unless renewed. With several processes, each answers for itself; the leases are the database's. No authentication: nothing in it is a record, key or setting.",
      auth: "none",
      ok: { status: 200, description: "the service is up", schema: "Health" },
      errors: [],
    });
  }

  async function healthRoute(c: Context<AppEnv, "/health">) {
    const processInfo = { pid: process.pid, workers: [...(opts.workers?.() ?? [])] };
    let leases: LeaseInfo[];
    try {
      await shared.getSetting("health_check");
      leases = await listLeases(shared, (opts.clock?.now() ?? new Date()).getTime(), HEALTH_MAX_LEASES);
    } catch {
      return c.json(
        { error: "unavailable", error_detail: "the database does not answer", database: { reachable: false }, process: processInfo },
        503,
      );
    }
    return c.json({ message: "ok", database: { reachable: true }, process: processInfo, leases: leases.map(_lease) });
  }
}

// --- internal ---

function _lease(l: LeaseInfo): HealthLease {
  const [host, pid] = l.owner.split(":");
  return {
    // A task's lease names its flock and id: not for an open path.
    name: l.name.startsWith("task:") ? "task" : l.name,
    holder: l.owner,
    this_process: host === hostname() && pid === String(process.pid),
    expires_at: formatTimestamp(new Date(l.expiresAt)),
  };
}
