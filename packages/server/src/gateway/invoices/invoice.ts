/**
 * @module gateway/invoices/invoice
 * The invoice answer (vendor `invoice`, spec v2-gateway 2.2) from what it is built of:
 * lines with their totals (rounded to 2 decimals, half away from zero), payments split
 * into paid (dated today or earlier, or undated) and scheduled, the buyer's details, the
 * signed link and the flock's invoicing settings. Pure: gateway/invoices/sources reads.
 */
import { primaryEntry, type StoredRecord } from "@records-service/core";
import { currencyOf, dateOf, money, numberOf } from "../events/packet.js";
import { uriOf } from "../read-all.js";
import type { InvoiceType } from "./signature.js";

/** What one invoice is built from. */
export interface InvoiceSource {
  type: InvoiceType;
  flock: string;
  uid: string;
  /** The record behind it (for an order: the named ticket). */
  record: StoredRecord;
  /** `YYYY-MM-DD` or null. */
  date: string | null;
  buyerUri: string | null;
  buyer: StoredRecord | undefined;
  billingContact: string | null;
  context: string | null;
  currency: string;
  /** Lines as stored (`{name, price, quantity, tax, tax_rate, ref, currency}`). */
  lines: Record<string, unknown>[];
  /** The counted, live payments. */
  payments: StoredRecord[];
}

/** The flock's invoicing settings as the answer's `config` gives them (null where not configured). */
export type InvoiceConfig = Record<string, unknown>;

/** The settings keys of `config`, beside `flock_name`, `default_currency` and `template`. */
export const INVOICE_CONFIG_KEYS = [
  "address", "postal_code", "contact_details", "contact_email", "contact_phone", "logo_url", "payment_details",
  "payment_detail_notes", "purchase_order_string", "tax_name", "vat_number",
] as const;

/** The signed link of an invoice, as the answer names it. */
export interface InvoiceLink {
  signature: string;
  signedPath: string;
  /** The resource type of the PDF path (`invoice`, `member`/`membership`, `ticket`). */
  pdfResourceType: string;
}

/**
 * The invoice answer.
 *
 * @example
 * invoiceAnswer(source, { today: "2026-01-15", link, config })
 */
export function invoiceAnswer(src: InvoiceSource, opts: { today: string; link: InvoiceLink; config: InvoiceConfig }): Record<string, unknown> {
  const d = src.record.data;
  const lines = src.lines.map((line) => _line(line, src.currency));
  const sum = (key: "total_before_tax" | "tax_total" | "total") => money(lines.reduce((n, l) => n + (l[key] as number), 0));
  const total = sum("total");
  let paid = 0;
  let scheduled = 0;
  let latest: StoredRecord | undefined;
  for (const p of src.payments) {
    const amount = numberOf(p.data.amount) ?? 0;
    const when = dateOf(p.data.payment_date);
    if (when === null || when <= opts.today) paid += amount;
    else scheduled += amount;
    if (!latest || _paymentKey(p) > _paymentKey(latest)) latest = p;
  }
  paid = money(paid);
  const due = money(total - paid);
  const id = typeof d.invoice_number === "string" && src.type === "invoice" && d.invoice_number !== "" ? d.invoice_number : src.uid;
  const storedStatus = src.type === "invoice" && typeof d.status === "string" && d.status !== "" ? d.status : null;
  return {
    id,
    invoice_uri: uriOf(src.record),
    date: src.date,
    buyer_ref: src.buyerUri,
    billing_contact: src.billingContact ?? src.buyerUri,
    buyer: _buyer(src.buyer),
    context: src.context,
    invoice_currency: src.currency,
    currency: src.currency,
    line_items: lines,
    total_before_tax: sum("total_before_tax"),
    tax_total: sum("tax_total"),
    total_tax: sum("tax_total"),
    total,
    total_paid: paid,
    total_scheduled: money(scheduled),
    number_of_payments: src.payments.length,
    due,
    payment_reference_uri: latest ? uriOf(latest) : null,
    status: storedStatus ?? (total > 0 && due <= 0 ? "paid" : paid > 0 ? "part-paid" : "unpaid"),
    purchase_order_no: src.type === "invoice" ? _str(d.purchase_order_no) : null,
    for_the_attention_of: src.type === "invoice" ? _str(d.for_the_attention_of) : null,
    signature: opts.link.signature,
    signed_invoice_uri: opts.link.signedPath,
    links: [
      {
        rel: "pdf",
        href: `/selfservice-pdf/v2/${src.flock}/${opts.link.pdfResourceType}/${src.uid}/invoice/${opts.link.signature}/pdf`,
        filename: `invoice-${id}.pdf`,
        prompt: "Download PDF",
      },
    ],
    config: opts.config,
  };
}

// --- internal ---

function _line(line: Record<string, unknown>, invoiceCurrency: string): Record<string, unknown> {
  const price = numberOf(line.price) ?? 0;
  const quantity = numberOf(line.quantity) ?? 1;
  const taxRate = numberOf(line.tax_rate) ?? 0;
  const before = money(price * quantity);
  const tax = money(before * taxRate);
  const total = money(before + tax);
  return {
    ...line,
    currency: currencyOf(line.currency, invoiceCurrency),
    quantity,
    tax_rate: taxRate,
    total_before_tax: before,
    tax_total: tax,
    total,
    total_float: total,
    tax_total_float: tax,
  };
}

function _buyer(r: StoredRecord | undefined): Record<string, unknown> {
  const d = r?.data ?? {};
  const first = (v: unknown) => (Array.isArray(v) ? primaryEntry(v)?.value ?? null : typeof v === "string" ? v : null);
  return {
    buyer_name: r ? r.displayValue : null,
    buyer_email: first(d.email),
    buyer_telephone: first(d.telephone),
    buyer_address: Array.isArray(d.address_lines) ? d.address_lines : typeof d.address_lines === "string" ? [d.address_lines] : null,
    buyer_locality: _str(d.locality),
    buyer_region: _str(d.region),
    buyer_postal_code: _str(d.postal_code),
    buyer_country: _str(d.country),
    buyer_vat_number: _str(d.vat_number),
  };
}

/** Orders payments: the latest by `payment_date` (undated first), then creation. */
function _paymentKey(p: StoredRecord): string {
  return `${dateOf(p.data.payment_date) ?? ""}|${p.created}|${p.id}`;
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
