/**
 * @module derived/card-pdf
 * The member card as a PDF, drawn with pdf-lib (a maintained, dependency-free PDF writer)
 * from the same `cardView` as the HTML card: the flock's name, the member's name and the
 * membership rows, on one card-sized page. The PDF's standard fonts cover Windows-1252
 * only, so other characters are shown without their accents, or as "?" when there is no
 * such form (the text layer stays searchable).
 */
import type { PDFFont } from "pdf-lib";
import { cardText, type CardView } from "./card.js";

/** The page: ISO/IEC 7810 ID-1 (a bank card), 85.60 × 53.98 mm, at twice its size in points. */
const WIDTH = 485;
const HEIGHT = 306;
const MARGIN = 24;
const TONE_COLOURS: Record<string, [number, number, number]> = {
  active: [0.09, 0.5, 0.24],
  ended: [0.7, 0.15, 0.15],
  pending: [0.6, 0.45, 0.05],
  neutral: [0.25, 0.25, 0.25],
};

/**
 * The card as PDF bytes. `created` is written as the document's creation and modification
 * time, so the same card on the same clock gives the same bytes.
 *
 * @example
 * const pdf = await renderCardPdf(cardView(input), new Date());
 */
export async function renderCardPdf(view: CardView, created: Date): Promise<Uint8Array> {
  // Loaded on first use: pdf-lib takes about as long to import as the rest of the server.
  const { PDFDocument, rgb, StandardFonts } = await (_pdfLib ??= import("pdf-lib"));
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([WIDTH, HEIGHT]);
  // Every text is bounded (cardText) before it is encoded or measured.
  const name = pdfSafeText(cardText(view.name), bold);
  const flockName = pdfSafeText(cardText(view.flockName), bold);
  doc.setTitle(`Membership card: ${name}`);
  doc.setSubject(pdfSafeText(cardText(view.flockName), regular));
  doc.setProducer("records-service");
  doc.setCreator("records-service");
  doc.setCreationDate(created);
  doc.setModificationDate(created);

  page.drawRectangle({ x: 0, y: HEIGHT - 56, width: WIDTH, height: 56, color: rgb(0.13, 0.2, 0.36) });
  page.drawText(fitPdfText(flockName, bold, 16, WIDTH - 2 * MARGIN), {
    x: MARGIN,
    y: HEIGHT - 36,
    size: 16,
    font: bold,
    color: rgb(1, 1, 1),
  });
  page.drawText(fitPdfText(name, bold, 22, WIDTH - 2 * MARGIN), { x: MARGIN, y: HEIGHT - 96, size: 22, font: bold });

  let y = HEIGHT - 132;
  for (const row of view.rows) {
    page.drawText(pdfSafeText(cardText(row.label), regular), { x: MARGIN, y, size: 11, font: regular, color: rgb(0.4, 0.4, 0.4) });
    const [r, g, b] = TONE_COLOURS[row.tone ?? ""] ?? [0, 0, 0];
    const value = fitPdfText(pdfSafeText(cardText(row.value), bold), bold, 12, WIDTH - MARGIN - 170);
    page.drawText(value, { x: 170, y, size: 12, font: bold, color: rgb(r, g, b) });
    y -= 24;
  }
  return doc.save({ useObjectStreams: false });
}

/**
 * `text` with every character `font` cannot encode replaced: by its unaccented form when
 * it has one (é → e), else by "?". Control characters become spaces.
 *
 * @example
 * pdfSafeText("Zoë Ωmega", helvetica) // "Zoë ?mega" (ë is in Windows-1252; Ω is not)
 */
export function pdfSafeText(text: string, font: PDFFont): string {
  const supported = _charset(font);
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += " ";
    else if (supported.has(cp)) out += ch;
    else {
      const bare = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += [...bare].every((c) => supported.has(c.codePointAt(0)!)) && bare !== "" ? bare : "?";
    }
  }
  return out;
}

/**
 * `text` cut with "..." to fit `width` points at `size`: each character is measured once and
 * the cut falls where the running sum of widths runs out (linear; `text` is already bounded
 * by `cardText`). Measuring every shorter prefix in turn, as before, took seconds for a name
 * of a few thousand characters. Widths are of single glyphs, without kerning, because that
 * is how pdf-lib's `drawText` places them.
 */
export function fitPdfText(text: string, font: PDFFont, size: number, width: number): string {
  const chars = [...text];
  const widths = chars.map((ch) => font.widthOfTextAtSize(ch, size));
  if (widths.reduce((a, b) => a + b, 0) <= width) return text;
  let room = width - 3 * font.widthOfTextAtSize(".", size);
  let n = 0;
  while (n < chars.length && widths[n]! <= room) room -= widths[n++]!;
  return `${chars.slice(0, n).join("")}...`;
}

// --- internal ---

let _pdfLib: Promise<typeof import("pdf-lib")> | undefined;

const _charsets = new WeakMap<PDFFont, Set<number>>();

function _charset(font: PDFFont): Set<number> {
  let set = _charsets.get(font);
  if (!set) _charsets.set(font, (set = new Set(font.getCharacterSet())));
  return set;
}
