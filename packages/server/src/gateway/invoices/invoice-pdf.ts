/**
 * @module gateway/invoices/invoice-pdf
 * The invoice answer (spec v2-gateway 2.2) as an A4 PDF (section 8, template `invoice-a4`):
 * the flock's name and invoicing settings, the invoice's number, date and status, the buyer
 * block, one row per line, then the totals, what is paid and what is due, and the payment
 * details. Pure over the answer: the route builds it exactly as the JSON route does.
 */
import { A4, createPdfFlow, PDF_MARGIN, pdfDate, pdfMoney, type PdfColumn } from "../pdf-document.js";

/** The template names accepted: ours, and the hosted service's default name for the same. */
export const INVOICE_TEMPLATES = ["invoice-a4", "sheep-invoice-a4"] as const;

/**
 * The PDF of `invoice` (an `invoiceAnswer`).
 *
 * @example
 * const bytes = await renderInvoicePdf(await buildInvoice(engine, settings, "demo", "invoice", id), clock.now());
 */
export async function renderInvoicePdf(invoice: Record<string, unknown>, created: Date): Promise<Uint8Array> {
  const config = _object(invoice.config);
  const buyer = _object(invoice.buyer);
  const currency = _text(invoice.invoice_currency) || "gbp";
  const flockName = _text(config.flock_name);
  const id = _text(invoice.id);
  const pdf = await createPdfFlow({ title: `Invoice ${id}`, subject: flockName, created });

  pdf.text(flockName, { size: 18, bold: true });
  for (const line of _lines(config.address)) pdf.text(line, { grey: true });
  for (const key of ["postal_code", "contact_details", "contact_email", "contact_phone"]) if (_text(config[key])) pdf.text(_text(config[key]), { grey: true });
  if (_text(config.vat_number)) pdf.text(`${_text(config.tax_name) || "VAT"} number ${_text(config.vat_number)}`, { grey: true });
  pdf.space(18);

  pdf.text(`Invoice ${id}`, { size: 16, bold: true });
  pdf.text(`Date ${pdfDate(_nullableText(invoice.date)) || "-"}`);
  pdf.text(`Status ${_text(invoice.status)}`);
  if (_text(invoice.purchase_order_no)) pdf.text(`${_text(config.purchase_order_string) || "Purchase order"} ${_text(invoice.purchase_order_no)}`);
  if (_text(invoice.for_the_attention_of)) pdf.text(`For the attention of ${_text(invoice.for_the_attention_of)}`);
  pdf.space(12);

  pdf.text("Bill to", { bold: true });
  pdf.text(_text(buyer.buyer_name) || "-");
  for (const line of _lines(buyer.buyer_address)) pdf.text(line);
  for (const key of ["buyer_locality", "buyer_region", "buyer_postal_code", "buyer_country", "buyer_email", "buyer_telephone"]) if (_text(buyer[key])) pdf.text(_text(buyer[key]));
  if (_text(buyer.buyer_vat_number)) pdf.text(`VAT number ${_text(buyer.buyer_vat_number)}`);
  pdf.space(16);

  pdf.row(_COLUMNS, ["Item", "Quantity", "Price", "Tax", "Total"], { bold: true });
  pdf.rule();
  for (const raw of Array.isArray(invoice.line_items) ? invoice.line_items : []) {
    const line = _object(raw);
    const lineCurrency = _text(line.currency) || currency;
    pdf.row(_COLUMNS, [
      _text(line.name) || "-",
      _number(line.quantity).toString(),
      pdfMoney(_number(line.price), lineCurrency),
      pdfMoney(_number(line.tax_total), lineCurrency),
      pdfMoney(_number(line.total), lineCurrency),
    ]);
  }
  pdf.rule();
  const totals: [string, unknown][] = [
    ["Subtotal", invoice.total_before_tax],
    [_text(config.tax_name) || "Tax", invoice.tax_total],
    ["Total", invoice.total],
    ["Paid", invoice.total_paid],
  ];
  if (_number(invoice.total_scheduled) !== 0) totals.push(["Scheduled", invoice.total_scheduled]);
  totals.push(["Due", invoice.due]);
  for (const [label, value] of totals) pdf.row(_TOTALS, [label, pdfMoney(_number(value), currency)], { bold: label === "Total" || label === "Due" });

  if (_text(config.payment_details) || _text(config.payment_detail_notes)) {
    pdf.space(16);
    pdf.text("Payment details", { bold: true });
    if (_text(config.payment_details)) pdf.text(_text(config.payment_details));
    if (_text(config.payment_detail_notes)) pdf.text(_text(config.payment_detail_notes), { grey: true });
  }
  return pdf.save();
}

// --- internal ---

const _RIGHT = A4.width - PDF_MARGIN;
const _COLUMNS: readonly PdfColumn[] = [
  { x: PDF_MARGIN, width: 215 },
  { x: 270, width: 50, align: "right" },
  { x: 325, width: 70, align: "right" },
  { x: 400, width: 65, align: "right" },
  { x: 470, width: _RIGHT - 470, align: "right" },
];
const _TOTALS: readonly PdfColumn[] = [
  { x: 325, width: 110 },
  { x: 440, width: _RIGHT - 440, align: "right" },
];

function _object(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function _text(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
}

function _nullableText(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function _number(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** An address: a list of lines, or one text; at most 20 lines are shown. */
function _lines(v: unknown): string[] {
  const list = Array.isArray(v) ? v : typeof v === "string" ? [v] : [];
  return list.filter((x): x is string => typeof x === "string" && x !== "").slice(0, 20);
}
