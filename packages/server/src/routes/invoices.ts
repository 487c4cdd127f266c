/**
 * @module routes/invoices
 * One invoice as JSON (spec v2-gateway section 2), under `/invoices/v2/{flock}`: an
 * `invoice` record, a membership or an order (any of its tickets names it).
 *
 * | method | path | who |
 * |---|---|---|
 * | GET | `/:flock/:invoice_type/:uid` | a core key of the flock; a member token for an invoice whose buyer is the member's own person (others 404) |
 * | GET | `/:flock/:invoice_type/:uid/:signature` | anyone holding the signed link (a key sent with it is ignored); the signature is checked before anything is read |
 */
import { notFound, RecordsError, badRequest } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { findCallerPerson } from "../auth/caller-person.js";
import { accountEmail } from "../auth/usernames.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented } from "../openapi/describe.js";
import { buildInvoice, type InvoiceSettings } from "../gateway/invoices/build.js";
import type { InvoiceSource } from "../gateway/invoices/invoice.js";
import { INVOICE_TYPES, invoiceKey, verifyInvoiceSignature, type InvoiceType } from "../gateway/invoices/signature.js";
import { uriOf } from "../gateway/read-all.js";
import type { RouteEngine } from "../http/route-engine.js";

/** Options of the invoice routes. */
export type InvoiceRouteOptions = InvoiceSettings;

/** Headers of every signed answer: the link is a bearer credential. */
export const SIGNED_HEADERS = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } as const;

/**
 * The invoice routes; mount under `/invoices/v2`.
 *
 * @example
 * const routes = invoiceRoutes(engine, guards, { flocks, secret }); route(app, "GET", "/invoices/v2/:flock/:invoice_type/:uid", routes.getInvoiceTypeUid);
 */
export function invoiceRoutes(engine: RouteEngine, guards: RouteGuards, opts: InvoiceRouteOptions) {

  return {
    getInvoiceTypeUid: [describeGetInvoiceTypeUid(), guards.requireKey(["core", "self-service"]), guards.requireFlock, getInvoiceTypeUid],
    getInvoiceTypeUidSignature: [describeGetInvoiceTypeUidSignature(), getInvoiceTypeUidSignature],
  } as const;

  function describeGetInvoiceTypeUid(): MiddlewareHandler {
    return documented({
      tag: "finance",
      summary: "One invoice: an invoice record, a membership or an order",
      description: "invoice_type is invoice (an invoice record), membership (a member or membership record) or order (any ticket of the order). A member token reads only invoices whose buyer is the member's own person.",
      auth: "keyOrSelfService",
      ok: { status: 200, description: "vendor invoice", schema: "Invoice" },
      errors: [400, 403, 404],
    });
  }

  async function getInvoiceTypeUid(c: Context<AppEnv, "/:flock/:invoice_type/:uid">) {
    const { flock, uid } = c.req.param() as { flock: string; uid: string };
    const type = _invoiceType(c.req.param("invoice_type")!);
    const user = c.get("user");
    const check =
      user.role === "self-service"
        ? async ({ buyerUri }: InvoiceSource) => {
            const person = await findCallerPerson(engine, flock, accountEmail(user.username));
            if (!person || buyerUri !== uriOf(person)) throw notFound("not found", `you have no ${type} invoice ${JSON.stringify(uid.slice(0, 60))}`);
          }
        : undefined;
    return c.json(await buildInvoice(engine, opts, flock, type, uid, check));
  }

  function describeGetInvoiceTypeUidSignature(): MiddlewareHandler {
    return documented({
      tag: "finance",
      summary: "One invoice through its signed link (no key)",
      description: "The signature is the lower-case hex HMAC-SHA256 of {flock}/{invoice_type}/{uid} keyed with the invoice key (derived from the server's secret); a core key reads it in the keyed answer. Wrong signature: 401 signature invalid. Deleting the record revokes the link (404).",
      auth: "none",
      ok: { status: 200, description: "vendor invoice", schema: "Invoice" },
      errors: [400, 401, 404],
    });
  }

  async function getInvoiceTypeUidSignature(c: Context<AppEnv, "/:flock/:invoice_type/:uid/:signature">) {
    const { flock, uid, signature } = c.req.param() as { flock: string; uid: string; signature: string };
    const type = _invoiceType(c.req.param("invoice_type")!);
    if (!verifyInvoiceSignature(invoiceKey(await opts.secret()), flock, type, uid, signature)) {
      throw new RecordsError("unauthorized", "signature invalid", "the signature does not match this invoice; ask for a new signed link");
    }
    if (!(await opts.flocks.getFlock(flock))) throw notFound("unknown flock", `there is no flock ${JSON.stringify(flock.slice(0, 80))}`);
    return c.json(await buildInvoice(engine, opts, flock, type, uid), 200, SIGNED_HEADERS);
  }
}

// --- internal ---

function _invoiceType(word: string): InvoiceType {
  if ((INVOICE_TYPES as readonly string[]).includes(word)) return word as InvoiceType;
  throw badRequest("invalid invoice_type", `${JSON.stringify(word.slice(0, 60))} is not an invoice type; use one of ${INVOICE_TYPES.join(", ")}`);
}
