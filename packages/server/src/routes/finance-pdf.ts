/**
 * @module routes/finance-pdf
 * The finance PDFs (spec v2-gateway section 8), under `/selfservice-pdf/v2/{flock}`:
 *
 * | method | path | who |
 * |---|---|---|
 * | GET | `/:flock/:resource_type/:uid/invoice/:signature/pdf?template=` | anyone holding the invoice's signed link (2.3); checked before anything is read |
 * | GET | `/:flock/giving/taxyear/:startyear/:endyear/pdf` | a member token (the member's own person), or a core key with `?person_uri=` |
 */
import { badRequest, notFound, parseRecordUri, RecordsError, type StoredRecord } from "@records-service/core";
import type { Context, MiddlewareHandler } from "hono";
import { findCallerPerson } from "../auth/caller-person.js";
import { accountEmail } from "../auth/usernames.js";
import { giftsOf } from "../gateway/giving/gifts.js";
import { renderGivingStatementPdf } from "../gateway/giving/statement-pdf.js";
import { CONFIG_DEFAULTS } from "../config/schema.js";
import { taxYear } from "../gateway/giving/tax-year.js";
import { buildInvoice, type InvoiceSettings } from "../gateway/invoices/build.js";
import { INVOICE_TEMPLATES, renderInvoicePdf } from "../gateway/invoices/invoice-pdf.js";
import { invoiceKey, verifyInvoiceSignature, type InvoiceType } from "../gateway/invoices/signature.js";
import { liveRecord } from "../gateway/records.js";
import { uriOf } from "../gateway/read-all.js";
import type { AppEnv } from "../http/env.js";
import type { RouteGuards } from "../middleware/auth.js";
import { documented, queryParam } from "../openapi/describe.js";
import { SIGNED_HEADERS } from "./invoices.js";
import type { RouteEngine } from "../http/route-engine.js";

/** The PDF path's resource types and the invoice type each signs as (spec 2.3). */
const PDF_RESOURCE_TYPES: Readonly<Record<string, InvoiceType>> = {
  invoice: "invoice",
  member: "membership",
  membership: "membership",
  ticket: "order",
};

/**
 * The finance PDF routes; mount under `/selfservice-pdf/v2`.
 *
 * @example
 * const routes = financePdfRoutes(engine, guards, { flocks, secret, invoicing }); route(app, "GET", "/selfservice-pdf/v2/:flock/giving/taxyear/:startyear/:endyear/pdf", routes.getGivingTaxyearStartyearEndyearPdf);
 */
export function financePdfRoutes(engine: RouteEngine, guards: RouteGuards, settings: InvoiceSettings) {
  const { clock } = engine.context;

  return {
    getGivingTaxyearStartyearEndyearPdf: [describeGetGivingTaxyearStartyearEndyearPdf(), guards.requireKey(["core", "self-service"]), guards.requireFlock, getGivingTaxyearStartyearEndyearPdf],
    getResourceTypeUidInvoiceSignaturePdf: [describeGetResourceTypeUidInvoiceSignaturePdf(), getResourceTypeUidInvoiceSignaturePdf],
  } as const;

  function describeGetGivingTaxyearStartyearEndyearPdf(): MiddlewareHandler {
    return documented({
      tag: "finance",
      summary: "A giving statement for one tax year, as PDF",
      description:
        "The person's gifts (payments with a donation_ref or pledge_ref whose payer is the person) dated inside the tax year, with totals per currency. The tax year runs from {startyear}-04-06 to {endyear}-04-05 unless the flock's invoicing settings give tax_year_start (MM-DD); endyear must be startyear + 1. A member token reads its own person's statement; a core key names the person with person_uri. No gifts: a statement saying so.",
      auth: "keyOrSelfService",
      query: [queryParam("person_uri", "the person (core keys; required there). A member token may only name its own person")],
      ok: { status: 200, description: "the statement", media: ["application/pdf"] },
      errors: [400, 403, 404],
    });
  }

  async function getGivingTaxyearStartyearEndyearPdf(c: Context<AppEnv, "/:flock/giving/taxyear/:startyear/:endyear/pdf">) {
    const { flock, startyear, endyear } = c.req.param() as { flock: string; startyear: string; endyear: string };
    const entry = (settings.invoicing ?? []).find((x) => x.flock === flock);
    const year = taxYear(startyear, endyear, entry?.tax_year_start ?? CONFIG_DEFAULTS.invoicing.tax_year_start);
    const person = await _statementPerson(engine, c, flock);
    const flockName = (await settings.flocks.getFlock(flock))?.name ?? flock;
    const { gifts, totals } = await giftsOf(engine, flock, person, year, entry?.default_currency ?? "gbp");
    const pdf = await renderGivingStatementPdf({ flockName, person, year, gifts, totals }, clock.now());
    return _pdf(c, pdf, `giving-statement-${year.startYear}-${year.endYear}.pdf`, { "Cache-Control": "private, no-store" });
  }

  function describeGetResourceTypeUidInvoiceSignaturePdf(): MiddlewareHandler {
    return documented({
      tag: "finance",
      summary: "An invoice as PDF, through its signed link (no key)",
      description:
        "resource_type is invoice, member, membership or ticket (another: 404); the signature is the invoice's (the JSON answer's signature: invoice for invoice, membership for member and membership, order for ticket). Wrong signature: 401 signature invalid, before anything is read. template is invoice-a4 (default) or sheep-invoice-a4 (the same); another: 400.",
      auth: "none",
      query: [queryParam("template", "invoice-a4 (default) or sheep-invoice-a4")],
      ok: { status: 200, description: "the invoice", media: ["application/pdf"] },
      errors: [400, 401, 404],
    });
  }

  async function getResourceTypeUidInvoiceSignaturePdf(c: Context<AppEnv, "/:flock/:resource_type/:uid/invoice/:signature/pdf">) {
    const { flock, resource_type: resourceType, uid, signature } = c.req.param() as { flock: string; resource_type: string; uid: string; signature: string };
    const type = Object.hasOwn(PDF_RESOURCE_TYPES, resourceType) ? PDF_RESOURCE_TYPES[resourceType]! : undefined;
    if (!type) throw notFound("not found", `${JSON.stringify(resourceType.slice(0, 60))} has no invoice PDF; use invoice, member, membership or ticket`);
    if (!verifyInvoiceSignature(invoiceKey(await settings.secret()), flock, type, uid, signature)) {
      throw new RecordsError("unauthorized", "signature invalid", "the signature does not match this invoice; ask for a new signed link");
    }
    const template = c.req.query("template") ?? INVOICE_TEMPLATES[0];
    if (!(INVOICE_TEMPLATES as readonly string[]).includes(template)) {
      throw badRequest("unknown template", `template ${JSON.stringify(template.slice(0, 60))} is not offered; use ${INVOICE_TEMPLATES.join(" or ")}`);
    }
    if (!(await settings.flocks.getFlock(flock))) throw notFound("unknown flock", `there is no flock ${JSON.stringify(flock.slice(0, 80))}`);
    const invoice = await buildInvoice(engine, settings, flock, type, uid, (source) => {
      // member and membership sign alike; the path still names the record's own type.
      if (source.record.type !== resourceType) {
        throw notFound("not found", `no ${resourceType} ${JSON.stringify(uid.slice(0, 60))} in flock ${flock}`);
      }
    });
    const pdf = await renderInvoicePdf(invoice, clock.now());
    return _pdf(c, pdf, `invoice-${_fileSafe(String(invoice.id))}.pdf`, SIGNED_HEADERS);
  }
}

// --- internal ---

/** The statement's person: the member's own, or the core key's `person_uri`. */
async function _statementPerson(engine: RouteEngine, c: Context<AppEnv>, flock: string): Promise<StoredRecord> {
  const given = c.req.query("person_uri");
  const user = c.get("user");
  if (user.role === "self-service") {
    const me = await findCallerPerson(engine, flock, accountEmail(user.username));
    if (!me) throw notFound("person not found", `no person in this flock has the email address ${JSON.stringify(accountEmail(user.username))}`);
    if (given !== undefined && given !== uriOf(me) && `${given}/` !== uriOf(me)) {
      throw new RecordsError("forbidden", "forbidden", "a member token reads only its own giving statement; leave out person_uri");
    }
    return me;
  }
  if (given === undefined || given.trim() === "") throw badRequest("missing person_uri", "a core key names the person: send person_uri=/{flock}/person/{id}/");
  const parsed = parseRecordUri(given.endsWith("/") ? given : `${given}/`);
  if (!parsed || parsed.flock !== flock || parsed.type !== "person") {
    throw badRequest("bad person_uri", `person_uri ${JSON.stringify(given.slice(0, 80))} is not a person URI of flock ${flock} (/${flock}/person/{id}/)`);
  }
  return liveRecord(engine, flock, "person", parsed.id);
}

function _pdf(c: Context<AppEnv>, pdf: Uint8Array, filename: string, headers: Record<string, string>) {
  return c.body(pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength) as ArrayBuffer, 200, {
    ...headers,
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${filename}"`,
    "X-Content-Type-Options": "nosniff",
  });
}

/** A file name part of letters, digits, `.`, `_` and `-` only, at most 80 characters. */
function _fileSafe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80);
}
