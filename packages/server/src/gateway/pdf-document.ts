/**
 * @module gateway/pdf-document
 * A flowing A4 document for the finance PDFs (an invoice, a giving statement), drawn with
 * pdf-lib and the PDF standard fonts as the member card is: lines of text and rows of
 * columns, top to bottom, a new page when one is full. Every text is bounded (`cardText`,
 * 300 characters) before it is encoded or measured, and cut with "..." to its column, so a
 * hostile value of any length costs the same as a short one.
 */
import type { PDFDocument, PDFFont, PDFPage } from "pdf-lib";
import { fitPdfText, pdfSafeText } from "../derived/card-pdf.js";
import { cardText } from "../derived/card.js";
import { money } from "./events/packet.js";

/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;
/** The margin every text keeps, on every side. */
export const PDF_MARGIN = 50;

/** One column of a row: where it starts, how wide it is, which side its text keeps to. */
export interface PdfColumn {
  x: number;
  width: number;
  align?: "left" | "right";
}

/** Text styles. */
interface PdfTextStyle {
  size?: number;
  bold?: boolean;
  grey?: boolean;
  /** Points from the left margin. */
  indent?: number;
}

/** The document being written. */
export interface PdfFlow {
  /** One line of text (cut to the page's width). */
  text(text: string, style?: PdfTextStyle): void;
  /** One row: the i-th text in the i-th column, each cut to its column. */
  row(columns: readonly PdfColumn[], texts: readonly string[], style?: PdfTextStyle): void;
  /** A horizontal rule across the page. */
  rule(): void;
  /** Empty space, in points. */
  space(points: number): void;
  /** The document's bytes. */
  save(): Promise<Uint8Array>;
}

/**
 * A new document. `created` is written as its creation and modification time, so the same
 * content on the same clock gives the same bytes.
 *
 * @example
 * const pdf = await createPdfFlow({ title: "Invoice INV-7", subject: "Alpha Society", created: new Date() });
 * pdf.text("Invoice INV-7", { size: 16, bold: true });
 * const bytes = await pdf.save();
 */
export async function createPdfFlow(opts: { title: string; subject: string; created: Date }): Promise<PdfFlow> {
  // Loaded on first use: pdf-lib takes about as long to import as the rest of the server.
  const { PDFDocument, StandardFonts, rgb } = await (_pdfLib ??= import("pdf-lib"));
  const doc: PDFDocument = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  doc.setTitle(pdfSafeText(cardText(opts.title), regular));
  doc.setSubject(pdfSafeText(cardText(opts.subject), regular));
  doc.setProducer("records-service");
  doc.setCreator("records-service");
  doc.setCreationDate(opts.created);
  doc.setModificationDate(opts.created);

  let page: PDFPage = doc.addPage([A4.width, A4.height]);
  let y = A4.height - PDF_MARGIN;
  const fontOf = (s: PdfTextStyle): PDFFont => (s.bold ? bold : regular);
  const colourOf = (s: PdfTextStyle) => (s.grey ? rgb(0.4, 0.4, 0.4) : rgb(0, 0, 0));
  /** Moves down one line of `size`, on a new page when this one is full. */
  const advance = (size: number) => {
    const height = size * 1.45;
    if (y - height < PDF_MARGIN) {
      page = doc.addPage([A4.width, A4.height]);
      y = A4.height - PDF_MARGIN;
    }
    y -= height;
  };
  const draw = (text: string, x: number, width: number, align: "left" | "right", style: PdfTextStyle, size: number) => {
    const font = fontOf(style);
    const shown = fitPdfText(pdfSafeText(cardText(text), font), font, size, width);
    if (shown.trim() === "") return;
    // Measured glyph by glyph, without kerning, as drawText places them.
    const at = align === "right" ? x + width - [...shown].reduce((w, ch) => w + font.widthOfTextAtSize(ch, size), 0) : x;
    page.drawText(shown, { x: at, y, size, font, color: colourOf(style) });
  };

  return {
    text(text, style = {}) {
      const size = style.size ?? 10;
      advance(size);
      const x = PDF_MARGIN + (style.indent ?? 0);
      draw(text, x, A4.width - PDF_MARGIN - x, "left", style, size);
    },
    row(columns, texts, style = {}) {
      const size = style.size ?? 10;
      advance(size);
      columns.forEach((col, i) => draw(texts[i] ?? "", col.x, col.width, col.align ?? "left", style, size));
    },
    rule() {
      advance(4);
      page.drawLine({ start: { x: PDF_MARGIN, y: y + 2 }, end: { x: A4.width - PDF_MARGIN, y: y + 2 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    },
    space(points) {
      if (y - points < PDF_MARGIN) {
        page = doc.addPage([A4.width, A4.height]);
        y = A4.height - PDF_MARGIN;
      } else y -= points;
    },
    save: () => doc.save({ useObjectStreams: false }),
  };
}

/**
 * An amount as the PDFs show it: the currency code upper-case, two decimals (rounded half
 * away from zero, as the invoice's totals are).
 *
 * @example
 * pdfMoney(242.35, "gbp") // "GBP 242.35"
 */
export function pdfMoney(amount: number, currency: string): string {
  return `${currency.toUpperCase()} ${money(amount).toFixed(2)}`;
}

/**
 * A `YYYY-MM-DD` date written out; anything else as given.
 *
 * @example
 * pdfDate("2026-04-05") // "5 April 2026"
 */
export function pdfDate(iso: string | null): string {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return iso ?? "";
  return `${Number(m[3])} ${_MONTHS[Number(m[2]) - 1]} ${m[1]}`;
}

// --- internal ---

let _pdfLib: Promise<typeof import("pdf-lib")> | undefined;

const _MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
