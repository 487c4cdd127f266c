/**
 * @module test/browser/console-contrast
 * The WCAG contrast of every piece of visible text on a page: its colour against the first
 * opaque background behind it. Disabled controls are exempt (WCAG 1.4.3).
 */
import type { Page } from "playwright-core";

/** One text that falls short: its text, colours and ratio. */
export interface LowContrast {
  text: string;
  color: string;
  background: string;
  ratio: number;
}

/** The texts on `page` with contrast below `min` (4.5 by default). */
export async function lowContrast(page: Page, min = 4.5): Promise<LowContrast[]> {
  return page.evaluate((minRatio) => {
    type El = { parentElement: El | null; childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>; closest(s: string): unknown; getClientRects(): ArrayLike<unknown> };
    const w = globalThis as unknown as {
      document: { querySelectorAll(s: string): ArrayLike<El> };
      getComputedStyle(e: El): { color: string; backgroundColor: string; visibility: string; display: string };
    };
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number) as number[];
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    const background = (e: El | null): string => {
      for (let x = e; x; x = x.parentElement) {
        const bg = w.getComputedStyle(x).backgroundColor;
        const parts = rgb(bg);
        if (parts.length === 3 || (parts.length === 4 && parts[3]! > 0)) return bg;
      }
      return "rgb(255, 255, 255)";
    };
    const out: { text: string; color: string; background: string; ratio: number }[] = [];
    for (const e of Array.from(w.document.querySelectorAll("body *"))) {
      const text = Array.from(e.childNodes)
        .filter((n) => n.nodeType === 3)
        .map((n) => n.textContent ?? "")
        .join("")
        .trim();
      if (!text || e.getClientRects().length === 0 || e.closest(":disabled, .sr-only, option, datalist")) continue;
      const style = w.getComputedStyle(e);
      if (style.visibility === "hidden") continue;
      const [l1, l2] = [lum(rgb(style.color)), lum(rgb(background(e)))];
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      if (ratio < minRatio) out.push({ text: text.slice(0, 40), color: style.color, background: background(e), ratio: Math.round(ratio * 100) / 100 });
    }
    return out;
  }, min);
}
