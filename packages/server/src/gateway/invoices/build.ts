/**
 * @module gateway/invoices/build
 * One invoice answer (spec v2-gateway 2.2) for a flock, type and uid: read what it is built
 * from, let the caller check the buyer, then add the signed link and the flock's invoicing
 * settings. Shared by the JSON routes and the PDF route so both show the same invoice.
 */
import { formatDate, type FlockStore } from "@records-service/core";
import { CONFIG_DEFAULTS, type InvoicingConfig } from "../../config/schema.js";
import { invoiceAnswer, INVOICE_CONFIG_KEYS, type InvoiceConfig } from "./invoice.js";
import { invoiceKey, invoiceSignature, signedInvoicePath, type InvoiceType } from "./signature.js";
import { pdfResourceType, readInvoiceSource } from "./sources.js";
import type { InvoiceSource } from "./invoice.js";
import type { RouteEngine } from "../../http/route-engine.js";

/** What building an invoice needs beside the engine. */
export interface InvoiceSettings {
  /** The flocks (an invoice names its flock). */
  flocks: FlockStore;
  /** The server's secret (the invoice key is derived from it). */
  secret: () => Promise<string>;
  /** The flocks' invoicing settings (config `invoicing`). */
  invoicing?: readonly InvoicingConfig[];
}

/**
 * The invoice answer; `check` sees the source before anything else is read (a member
 * token's buyer check) and throws to refuse.
 *
 * @example
 * const invoice = await buildInvoice(engine, settings, "demo", "invoice", id);
 */
export async function buildInvoice(
  engine: RouteEngine,
  settings: InvoiceSettings,
  flock: string,
  type: InvoiceType,
  uid: string,
  check?: (source: InvoiceSource) => Promise<void> | void,
): Promise<Record<string, unknown>> {
  const source = await readInvoiceSource(engine, flock, type, uid);
  if (check) await check(source);
  const key = invoiceKey(await settings.secret());
  const flockRow = await settings.flocks.getFlock(flock);
  return invoiceAnswer(source, {
    today: formatDate(engine.context.clock.now()),
    link: { signature: invoiceSignature(key, flock, type, uid), signedPath: signedInvoicePath(key, flock, type, uid), pdfResourceType: pdfResourceType(source) },
    config: invoicingConfig(flock, flockRow?.name ?? flock, settings.invoicing ?? []),
  });
}

/**
 * The flock's invoicing settings as an invoice's `config` gives them (null where not set).
 *
 * @example
 * invoicingConfig("demo", "Demo Society", []) // { flock_name: "Demo Society", default_currency: "gbp", address: null, ..., template: "invoice-a4" }
 */
function invoicingConfig(flock: string, name: string, all: readonly InvoicingConfig[]): InvoiceConfig {
  const mine = all.find((x) => x.flock === flock) as Record<string, unknown> | undefined;
  return {
    flock_name: name,
    default_currency: (mine?.default_currency as string | undefined) ?? CONFIG_DEFAULTS.invoicing.default_currency,
    ...Object.fromEntries(INVOICE_CONFIG_KEYS.map((k) => [k, mine?.[k] ?? null])),
    template: (mine?.template as string | undefined) ?? CONFIG_DEFAULTS.invoicing.template,
  };
}
