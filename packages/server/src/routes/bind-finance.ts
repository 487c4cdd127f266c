/**
 * @module routes/bind-finance
 * The invoices gateway (/invoices/v2) and the finance PDFs (/selfservice-pdf/v2): invoices keyed or through signed links.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";
import { route, type RouteDeps } from "./bind.js";
import { financePdfRoutes } from "./finance-pdf.js";
import { invoiceRoutes } from "./invoices.js";

/**
 * The area's routes: method, path and handler, one a line.
 *
 * @example
 * bindFinance(staged, deps);
 */
export function bindFinance(app: Hono<AppEnv>, deps: RouteDeps): void {
  const invoices = invoiceRoutes(deps.engine, deps.guards, deps.invoiceSettings);
  const pdf = financePdfRoutes(deps.engine, deps.guards, deps.invoiceSettings);

  route(app, "GET", "/invoices/v2/:flock/:invoice_type/:uid", invoices.getInvoiceTypeUid);
  route(app, "GET", "/invoices/v2/:flock/:invoice_type/:uid/:signature", invoices.getInvoiceTypeUidSignature);
  route(app, "GET", "/selfservice-pdf/v2/:flock/giving/taxyear/:startyear/:endyear/pdf", pdf.getGivingTaxyearStartyearEndyearPdf);
  route(app, "GET", "/selfservice-pdf/v2/:flock/:resource_type/:uid/invoice/:signature/pdf", pdf.getResourceTypeUidInvoiceSignaturePdf);
}
