/**
 * @module routes/selfservice-pdf
 * `GET /selfservice-pdf/v2/{flock}/member/{id}/card`: the member card as `application/pdf`
 * (the same content as the signed HTML card). A member's self-service token reaches only
 * the cards of its own memberships (another member's is 404, as for reservations); a core
 * key of the flock reaches every card.
 */
import { notFound, type FlockStore } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { findCallerPerson } from "../auth/caller-person.js";
import { accountEmail } from "../auth/usernames.js";
import { loadCard } from "../derived/card-data.js";
import { cardView } from "../derived/card.js";
import { renderCardPdf } from "../derived/card-pdf.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import type { RouteEngine } from "../http/route-engine.js";

/**
 * The PDF card route; mount under `/selfservice-pdf/v2`.
 *
 * @example
 * const routes = selfServicePdfRoutes(engine, guards, flocks); route(app, "GET", "/selfservice-pdf/v2/:flock/member/:id/card", routes.getMemberIdCard);
 */
export function selfServicePdfRoutes(engine: RouteEngine, guards: RouteGuards, flocks: FlockStore) {
  const { clock } = engine.context;
  const guard = [guards.requireKey(["core", "self-service"]), guards.requireFlock] as const;

  return {
    getMemberIdCard: [describeGetMemberIdCard(), ...guard, getMemberIdCard],
  } as const;

  function describeGetMemberIdCard(): MiddlewareHandler {
    return documented({ tag: "derived", summary: "A member's card as PDF", description: "A core key, or a self-service token for one of the caller's own memberships (404 for others).", auth: "keyOrSelfService", ok: { status: 200, description: "the card", media: ["application/pdf"] }, errors: [403, 404] });
  }

  async function getMemberIdCard(c: Context<AppEnv, "/:flock/member/:id/card">) {
    const { flock, id } = c.req.param();
    const card = await loadCard(engine, flocks, flock, id);
    const user = c.get("user");
    if (user.role === "self-service") {
      const me = await findCallerPerson(engine, flock, accountEmail(user.username));
      if (!me || !card.person || me.id !== card.person.id) throw notFound("member not found", `no membership ${id} of yours in flock '${flock}'`);
    }
    const pdf = await renderCardPdf(cardView(card.input), clock.now());
    return c.body(pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength) as ArrayBuffer, 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="membership-card-${id}.pdf"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
  }
}
