/**
 * @module test/helpers/pdf
 * Reads a PDF the way a viewer does, in JavaScript (pdfjs-dist, Mozilla's PDF.js), so the
 * card tests need nothing but Node: the first page's size, its text as positioned runs and
 * as lines, and what it paints.
 */
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

/** One run of text as drawn: its string, where it starts (points from the bottom left) and how wide it is. */
interface PdfTextRun {
  text: string;
  x: number;
  y: number;
  width: number;
}

/** What a PDF's first page shows. */
export interface PdfPage {
  pages: number;
  width: number;
  height: number;
  /** Non-empty text runs, top to bottom, left to right. */
  runs: PdfTextRun[];
  /** The runs joined into lines (one per baseline, runs separated by a space). */
  lines: string[];
  /** Shapes painted (rectangles, paths), counted from the page's operators. */
  shapes: number;
  /** The document's title (its Info dictionary). */
  title: string;
}

/**
 * The first page of `bytes`, read with PDF.js.
 *
 * @example
 * const { lines } = await readPdf(bytes); expect(lines).toContain("Alpha Society");
 */
export async function readPdf(bytes: Uint8Array): Promise<PdfPage> {
  // PDF.js may detach the buffer it is given: hand it a copy.
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(1);
    const { width, height } = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const runs: PdfTextRun[] = [];
    for (const item of content.items) {
      if (!("str" in item) || item.str.trim() === "") continue;
      runs.push({ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width });
    }
    runs.sort((a, b) => b.y - a.y || a.x - b.x);
    const lines: string[] = [];
    for (let i = 0; i < runs.length; i++) {
      const text = runs[i]!.text;
      if (i > 0 && Math.abs(runs[i - 1]!.y - runs[i]!.y) < 1) lines[lines.length - 1] += ` ${text}`;
      else lines.push(text);
    }
    const ops = await page.getOperatorList();
    // PDF.js folds a path and its painting into one constructPath operator.
    const shapes = ops.fnArray.filter((op) => op === OPS.constructPath).length;
    const info = (await doc.getMetadata()).info as { Title?: string };
    return { pages: doc.numPages, width, height, runs, lines, shapes, title: info.Title ?? "" };
  } finally {
    await doc.destroy();
  }
}
