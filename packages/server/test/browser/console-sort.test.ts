/**
 * Sortable columns sort the whole list, not the page (issue 25, point 4), in Debian's
 * headless Chromium against a real server, at 1280 and 390 pixels: a click on a header
 * asks the API for `sort=` (in the URL), and every page follows that order; again for
 * descending, again for the service's order. At 390 px, where only the record and its
 * state are shown, the record's header sorts persons by name (`sortable_name`: surname first).
 */
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/runtime.js";
import { BROWSER_TESTS, launchChromium, sendJson, signIn, startTestServer } from "./chromium.js";

const PASSWORD = "console sort password";
const USER = "sorter@example.org";
const IMG = fileURLToPath(new URL("../../../../docs/img/", import.meta.url));
/** Created in this order; sorted by surname they are anything but. */
const PEOPLE = [
  ["Grace", "hopper"],
  ["Ada", "Lovelace"],
  ["Alan", "Turing"],
  ["Emmy", "Noether"],
  ["Marie", "Curie"],
  ["Charles", "Babbage"],
  ["Katherine", "Johnson"],
] as const;
const BY_SURNAME = ["Charles Babbage", "Marie Curie", "Grace hopper", "Katherine Johnson", "Ada Lovelace", "Emmy Noether", "Alan Turing"];

describe.skipIf(!BROWSER_TESTS)("sorting the whole list by a column (issue 25)", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ flocks: [{ identifier: "demo", name: "Demo Society" }], users: [{ username: USER, password: PASSWORD, flocks: ["demo"] }] });
    const key = await signIn(server.url, USER, PASSWORD);
    for (const [first_name, last_name] of PEOPLE) await sendJson(server.url, "POST", "/api/v1/demo/person/", { first_name, last_name }, key);
    await sendJson(server.url, "POST", "/api/v1/demo/person/", { first_name: "Nameless" }, key);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  // By surname the person without one comes last either way; by name (sortable_name) it sorts as "nameless".
  const byName = [...BY_SURNAME.slice(0, 5), "Nameless", ...BY_SURNAME.slice(5)];
  const cases = [
    { width: 1280, header: "Last name", up: [...BY_SURNAME, "Nameless"], down: [...[...BY_SURNAME].reverse(), "Nameless"] },
    { width: 390, header: "Record", up: byName, down: [...byName].reverse() },
  ];
  for (const { width, header, up, down } of cases) {
    it(`at ${width} px the ${header} header orders every page, both ways`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${server.url}/console/`);
        await page.getByLabel("Username").fill(USER);
        await page.getByLabel("Password").fill(PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByRole("button", { name: "Sign out" }).waitFor();
        await page.goto(`${server.url}/console/#/demo/person?page_size=3`);
        await expect.poll(() => _names(page)).toEqual(["Grace hopper", "Ada Lovelace", "Alan Turing"]);

        // Ascending: three pages in surname order (case ignored); the record without a surname last.
        await page.getByRole("button", { name: header, exact: true }).click();
        await expect.poll(() => page.locator("th[aria-sort=ascending]").textContent()).toContain(header);
        expect(page.url()).toMatch(/sort=(last_name|sortable_name)/);
        await expect.poll(() => _names(page)).toEqual(up.slice(0, 3));
        if (width === 1280) await page.screenshot({ path: `${IMG}console-sorted-1280.png`, fullPage: true });
        await _expectPages(page, up);

        // Descending starts again at page 1; the record without a surname is still last.
        await page.getByRole("button", { name: header, exact: true }).click();
        await expect.poll(() => page.locator("th[aria-sort=descending]").textContent()).toContain(header);
        await expect.poll(() => page.getByText(/^Page \d+ of \d+$/).textContent()).toBe("Page 1 of 3");
        await _expectPages(page, down);
        expect(await page.getByLabel("Order").inputValue()).toMatch(/^-(last_name|sortable_name)$/);

        // A third click: the service's order again (creation order).
        await page.getByRole("button", { name: header, exact: true }).click();
        await expect.poll(() => page.locator("th[aria-sort]").count()).toBe(0);
        await expect.poll(() => _names(page)).toEqual(["Grace hopper", "Ada Lovelace", "Alan Turing"]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});

/** The record names on the page shown. */
async function _names(page: Page): Promise<string[]> {
  return (await page.locator("main table tbody tr td:nth-child(2)").allTextContents()).map((t) => t.trim());
}

/**
 * Walks the pages of 3 from the one shown (page 1) to the last through the pager's Next
 * button, waiting on each for its rows to be `expected`'s slice: the pager's label can
 * change before the page's rows arrive, so reading the rows once could see the last page's.
 */
async function _expectPages(page: Page, expected: readonly string[]): Promise<void> {
  const pages = Math.ceil(expected.length / 3);
  for (let at = 1; at <= pages; at++) {
    await expect.poll(() => page.getByText(/^Page \d+ of \d+$/).textContent()).toBe(`Page ${at} of ${pages}`);
    await expect.poll(() => _names(page)).toEqual(expected.slice((at - 1) * 3, at * 3));
    if (at < pages) await page.getByRole("button", { name: "Next" }).click();
  }
}
