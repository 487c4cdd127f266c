/**
 * @module routes/card-link
 * `GET /:flock/member/:id/card_url/`: the signed link of a member's card, for core keys of
 * the flock (the console shows it on a member's page; the signature needs the server's
 * secret, which a browser never sees). The link's origin is the request's own.
 */
import { isRecordId, notFound } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { cardUrl } from "../derived/card-signature.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * The card link route; `secret` is the app's secret source (as the card route checks with).
 *
 * @example
 * // GET /api/v1/demo/member/<id>/card_url/ → {"url": "http://host/api/v2/demo/member/<id>/card/?signature=..."}
 */
export function cardLinkRoutes(engine: RouteEngine, guards: RouteGuards, secret: () => Promise<string>) {

  return {
    getMemberIdCardUrl: [describeGetMemberIdCardUrl(), guards.requireKey(), guards.requireFlock, getMemberIdCardUrl],
  } as const;

  function describeGetMemberIdCardUrl(): MiddlewareHandler {
    return documented({ tag: "derived", summary: "A member's signed card link (for the console, which holds no secret)", auth: "key", ok: { status: 200, description: "the link", schema: "CardLink" }, errors: [403, 404] });
  }

  async function getMemberIdCardUrl(c: Context<AppEnv, "/:flock/member/:id/card_url">) {
    const flock = c.req.param("flock");
    const id = c.req.param("id");
    const record = isRecordId(id) ? await engine.read.getRecord(flock, "member", id) : undefined;
    if (!record || record.state === "deleted") {
      throw notFound("unknown member", `flock ${JSON.stringify(flock)} has no member ${JSON.stringify(id.slice(0, 80))}`);
    }
    return c.json({ url: cardUrl(new URL(c.req.url).origin, await secret(), flock, id) });
  }
}
