/**
 * `/api/docs` as a person sees it: a real server and Debian's headless Chromium
 * (playwright-core). The reference must render the path list from `/api/openapi.json`
 * with every request going to the server itself (no CDN). Without /usr/bin/chromium the
 * test is skipped locally and FAILS in CI, as the card test.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/runtime.js";
import { BROWSER_TESTS, launchChromium } from "./chromium.js";

describe.skipIf(!BROWSER_TESTS)("/api/docs in headless Chromium", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ db: ":memory:", host: "127.0.0.1", port: 0 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists the paths, loading nothing from another host", async () => {
    const page = await browser.newPage();
    const origin = new URL(server.url).origin;
    const elsewhere: string[] = [];
    page.on("request", (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !url.startsWith("data:")) elsewhere.push(url);
    });
    const res = await page.goto(`${server.url}/api/docs`);
    expect(res?.status()).toBe(200);
    // Swagger UI renders one block per operation, its path in `.opblock-summary-path`, and
    // only the blocks near the viewport: scroll the page through and collect them all.
    await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(100);
    const rendered = new Set<string>();
    // On a busy machine a block may draw after the page has scrolled past it, so the page
    // is walked again (at most four times) until every path has been seen once.
    for (let pass = 0; pass < 4 && Object.keys(doc.paths).some((p) => !rendered.has(p)); pass++) {
      await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      for (let step = 0; step < 2_000; step++) {
        await page.waitForTimeout(pass === 0 ? 50 : 250);
        const here = await page.$$eval(".opblock-summary-path", (els) => els.map((e) => e.getAttribute("data-path") ?? e.textContent ?? ""));
        for (const p of here) rendered.add(p);
        const atEnd = await page.evaluate(() => {
          // The test's tsconfig has no DOM types; the page's window is typed here by hand.
          const win = globalThis as unknown as { scrollY: number; scrollBy(x: number, y: number): void };
          const y = win.scrollY;
          win.scrollBy(0, 500);
          return win.scrollY === y;
        });
        if (atEnd) break;
      }
    }
    // Every path of the document is drawn (the console's "/" included), the late tags too.
    expect([...rendered].sort()).toEqual(Object.keys(doc.paths).sort());
    for (const p of ["/api/v1/ping", "/api/v1/{flock}/{type}", "/api/v2/selfservice/{flock}/reservations", "/api/v1/_clock/advance"]) expect(rendered).toContain(p);
    expect(await page.title()).toContain("Records Service");
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 180_000);
});
