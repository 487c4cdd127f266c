/**
 * @module gateway/giving/statement-pdf
 * A giving statement for one tax year as an A4 PDF (spec v2-gateway section 8): the flock's
 * name, the person's name and address, each gift (date, reference, amount with its
 * currency) and the totals per currency; with no gifts, a sentence saying so.
 */
import type { StoredRecord } from "@records-service/core";
import { A4, createPdfFlow, PDF_MARGIN, pdfDate, pdfMoney, type PdfColumn } from "../pdf-document.js";
import type { Gift } from "./gifts.js";
import type { TaxYear } from "./tax-year.js";

/** What a statement shows. */
export interface GivingStatement {
  flockName: string;
  person: StoredRecord;
  year: TaxYear;
  gifts: readonly Gift[];
  totals: readonly { currency: string; amount: number }[];
}

/** The sentence of a statement without gifts. */
const NO_GIFTS = "No gifts are recorded for this tax year.";

/**
 * The statement's PDF bytes.
 *
 * @example
 * const bytes = await renderGivingStatementPdf({ flockName, person, year, gifts, totals }, clock.now());
 */
export async function renderGivingStatementPdf(s: GivingStatement, created: Date): Promise<Uint8Array> {
  const name = s.person.displayValue;
  const pdf = await createPdfFlow({ title: `Giving statement ${s.year.startYear}-${s.year.endYear}: ${name}`, subject: s.flockName, created });
  pdf.text(s.flockName, { size: 18, bold: true });
  pdf.space(12);
  pdf.text(`Giving statement, tax year ${s.year.startYear}-${s.year.endYear}`, { size: 16, bold: true });
  pdf.text(`From ${pdfDate(s.year.first)} to ${pdfDate(s.year.last)}`, { grey: true });
  pdf.space(12);
  pdf.text(name, { bold: true });
  for (const line of _address(s.person.data)) pdf.text(line);
  pdf.space(16);
  if (s.gifts.length === 0) {
    pdf.text(NO_GIFTS);
    return pdf.save();
  }
  pdf.row(_COLUMNS, ["Date", "Reference", "Amount"], { bold: true });
  pdf.rule();
  for (const g of s.gifts) pdf.row(_COLUMNS, [pdfDate(g.date), g.reference || "-", pdfMoney(g.amount, g.currency)]);
  pdf.rule();
  for (const t of s.totals) pdf.row(_COLUMNS, ["Total", "", pdfMoney(t.amount, t.currency)], { bold: true });
  return pdf.save();
}

// --- internal ---

const _COLUMNS: readonly PdfColumn[] = [
  { x: PDF_MARGIN, width: 120 },
  { x: 175, width: 250 },
  { x: 430, width: A4.width - PDF_MARGIN - 430, align: "right" },
];

/** The person's address lines, then locality, region, postal code and country (at most 20 lines). */
function _address(d: Record<string, unknown>): string[] {
  const lines = Array.isArray(d.address_lines) ? d.address_lines : typeof d.address_lines === "string" ? [d.address_lines] : [];
  const rest = ["locality", "region", "postal_code", "country"].map((k) => d[k]);
  return [...lines, ...rest].filter((x): x is string => typeof x === "string" && x !== "").slice(0, 20);
}
