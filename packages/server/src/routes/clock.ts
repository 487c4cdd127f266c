/**
 * @module routes/clock
 * The manual clock (emulator mode): `GET /_clock` → `{now}`, `POST /_clock/advance`
 * `{"days"|"seconds"|"to"}` → `{now, fired}` once everything due in between has run. For
 * administrator keys only (403 otherwise). Without `--clock manual` both answer 404, before
 * any credential check, as if they did not exist.
 */
import { badRequest, formatTimestamp, notFound, parseTimestamp, RecordsError, type Clock } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import { isAdmin } from "../auth/access.js";
import { MAX_ADVANCE_DAYS, type ClockAdvancer } from "../clock/advance.js";
import { bodyKind, readJsonObject, unsupportedBody } from "../http/body.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import { ClockAdvanceBranches } from "../openapi/schemas.js";

/**
 * The clock routes. `advancer` is present only with a manual clock.
 *
 * @example
 * const routes = clockRoutes(guards, clock, driver?.advancer); route(app, "GET", "/api/v1/_clock", routes.getClock);
 */
export function clockRoutes(guards: RouteGuards, clock: Clock, advancer: ClockAdvancer | undefined) {
  const manualOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!advancer) throw notFound("not found", "the clock is not manual: these paths exist with records-service serve --clock manual");
    await next();
  };
  const adminOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!isAdmin(c.get("user"))) throw new RecordsError("forbidden", "forbidden", 'only an administrator key (a user whose flocks are ["*"]) may read or move the clock');
    await next();
  };
  const guard = [manualOnly, guards.requireKey(), adminOnly] as const;

  return {
    getClock: [describeGetClock(), ...guard, getClock],
    postClockAdvance: [describePostClockAdvance(), ...guard, postClockAdvance],
  } as const;

  function describeGetClock(): MiddlewareHandler {
    return documented({
      tag: "admin",
      summary: "The service's time (manual clock only)",
      description: "404 unless the server runs with --clock manual.",
      auth: "admin",
      ok: { status: 200, description: "the current time", schema: "ClockNow" },
      errors: [403, 404],
    });
  }

  function getClock(c: Context<AppEnv, "/_clock">) {
    return c.json({ now: formatTimestamp(clock.now()) });
  }

  function describePostClockAdvance(): MiddlewareHandler {
    return documented({
      tag: "admin",
      summary: "Move the manual clock forward, running everything due in between",
      description:
        "Stops at every 00:00 UTC and at every retry falling due on the way, in time order; at each stop the scheduler runs " +
        `(date-relative events, expiry purges), then the outbox (webhooks, emails). At most ${MAX_ADVANCE_DAYS} days at once. ` +
        "A move backwards or by zero is 400. 404 unless the server runs with --clock manual.",
      auth: "admin",
      body: { schema: "ClockAdvanceBody" },
      ok: { status: 200, description: "the new time and the data events that fired, by name", schema: "ClockAdvanced" },
      errors: [403, 404],
    });
  }

  async function postClockAdvance(c: Context<AppEnv, "/_clock/advance">) {
    if (bodyKind(c) !== "json") throw unsupportedBody(c, 'a JSON object such as {"days": 14}');
    const to = _target(await readJsonObject(c), clock.now());
    const report = await advancer!.advance(to);
    return c.json({ now: formatTimestamp(report.now), fired: report.fired });
  }
}

// --- internal ---

const _KEYS = Object.keys(ClockAdvanceBranches) as (keyof typeof ClockAdvanceBranches)[];

/** The time to move to, checked with the body's schema: forward, and at most MAX_ADVANCE_DAYS. */
function _target(body: Record<string, unknown>, now: Date): Date {
  const given = _KEYS.filter((k) => k in body);
  if (given.length !== 1) {
    throw badRequest("invalid advance", `send exactly one of {"days": n}, {"seconds": n} or {"to": "YYYY-MM-DDTHH:MM:SSZ"}; got keys ${JSON.stringify(Object.keys(body).slice(0, 10))}`);
  }
  const key = given[0]!;
  const parsed = v.safeParse(ClockAdvanceBranches[key], body);
  if (!parsed.success) throw badRequest("invalid advance", parsed.issues.map((i) => i.message).join("; "));
  const limitMs = MAX_ADVANCE_DAYS * 86_400_000;
  const deltaMs = key === "to" ? parseTimestamp(body.to as string)!.getTime() - now.getTime() : (body[key] as number) * (key === "days" ? 86_400_000 : 1000);
  if (!(deltaMs > 0)) {
    throw badRequest("clock moves forward only", `${String(body.to)} is not after the service's time ${formatTimestamp(now)}`);
  }
  if (deltaMs > limitMs) throw badRequest("advance too far", `one advance moves at most ${MAX_ADVANCE_DAYS} days; advance in several steps`);
  const to = new Date(now.getTime() + deltaMs);
  return to;
}
