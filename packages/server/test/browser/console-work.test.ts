/**
 * The console as a membership secretary uses it (issue 25, points 4 to 7), in Debian's
 * headless Chromium against a real server, at 1280 and 390 pixels: search by name or email
 * ("/" focuses the box), sort a column, newest first, choose columns and find them again
 * after a reload, run a bulk action on selected rows and watch its task's progress, export
 * the filtered list as CSV and XLSX (read back with csv-parse and exceljs), a person's
 * related lists and history, the dashboard's charts, the outbox hidden from staff, dark
 * mode, and axe (no serious or critical violation) on every page. With 10,000 persons in a
 * flock it prints how long the list, a person and the dashboard take to render (reported,
 * not asserted). Screenshots go to docs/img/.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { createRecordEngine, systemAttribution, systemClock } from "@records-service/core";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importRecords } from "../../src/bulk-io/import-records.js";
import type { RunningServer } from "../../src/runtime.js";
import { BROWSER_TESTS, idOf, launchChromium, sendJson, signIn, startTestServer } from "./chromium.js";

const PASSWORD = "console work password";
const IMG = fileURLToPath(new URL("../../../../docs/img/", import.meta.url));
const STAFF = "staff@example.org";
const ADMIN = "admin@example.org";
const BIG = 10_000;

describe.skipIf(!BROWSER_TESTS)("the console's lists, story, dashboard and fit (issue 25)", () => {
  let server: RunningServer;
  let browser: Browser;
  let staffKey: string;
  let adaId: string;
  let adaMembership: string;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      flocks: [
        { identifier: "demo", name: "Demo Society" },
        { identifier: "big", name: "Big Society" },
      ],
      users: [
        { username: STAFF, password: PASSWORD, flocks: ["demo", "big"] },
        { username: ADMIN, password: PASSWORD, flocks: ["*"] },
      ],
    });
    staffKey = await signIn(server.url, STAFF, PASSWORD);
    const people: [string, string, string][] = [
      ["Ada", "Lovelace", "ada@example.org"],
      ["Grace", "Hopper", "grace@example.org"],
      ["Alan", "Turing", "alan@example.org"],
      ["Katherine", "Johnson", "kj@example.org"],
      ["Edsger", "Dijkstra", "edsger@example.org"],
    ];
    for (const [first_name, last_name, email] of people) {
      ids.push(idOf(await _send("POST", "/api/v1/demo/person/", { first_name, last_name, email: [email], locality: `${last_name}ville` })));
    }
    adaId = ids[0]!;
    const ada = `/demo/person/${adaId}/`;
    const today = new Date();
    const day = (d: number) => new Date(today.getTime() + d * 86_400_000).toISOString().slice(0, 10);
    adaMembership = idOf(await _send("POST", "/api/v1/demo/membership/", { member: ada, start_date: day(-340), end_date: day(25), membership_record_status: "active", name: "Full member" }));
    await _send("POST", "/api/v1/demo/membership/", { member: `/demo/person/${ids[1]}/`, start_date: day(-400), end_date: day(-30), membership_record_status: "lapsed" });
    await _send("POST", "/api/v1/demo/membership/", { member: `/demo/person/${ids[2]}/`, start_date: day(-300), end_date: day(80), membership_record_status: "active" });
    await _send("POST", "/api/v1/demo/payment/", { person_ref: ada, amount: 30, currency: "gbp", payment_date: day(-5), membership_ref: `/demo/membership/${adaMembership}/` });
    await _send("POST", "/api/v1/demo/ticket/", { person_ref: ada, booking_ref: "/demo/booking/0123456789abcdef01234567/", amount: 12, status: "booked", start_date: day(10) });
    await _send("PUT", `/api/v1/demo/person/${adaId}/`, { job_title: "Analyst", known_as: "Ada" });

    // The big flock: 10,000 persons through the import path (one transaction per 5,000).
    const engine = createRecordEngine({ storage: server.storage, clock: systemClock }).withAttribution(systemAttribution("import"));
    const rows = Array.from({ length: BIG }, (_, i) => ({ line: i + 1, value: { first_name: `Person${i}`, last_name: `Surname${i % 997}`, email: [`p${i}@example.org`] } }));
    const report = await importRecords(engine, "big", rows);
    expect(report.created).toBe(BIG);
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists: search, sort, newest first, columns kept, bulk action with progress, CSV and XLSX export", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await _signedIn(context, STAFF);
    try {
      await page.goto(`${server.url}/console/#/demo/person`);
      await _records(page, "5 records");
      const table = page.getByRole("table");
      // Columns in words, chosen ones only: not whatever the first row holds.
      const headers = await table.locator("thead th").allTextContents();
      expect(headers.map((h) => h.trim())).toEqual(["", "Record", "First name", "Last name", "Email", "Tags", "State", "Last updated"]);
      // Human dates: no microseconds, no "T".
      const updated = (await table.locator("tbody tr").first().locator("td").last().textContent())!;
      expect(updated).not.toMatch(/T\d\d:|\.\d{6}/);
      expect(updated).toMatch(/\d{4}/);

      // Choose a column; it stays after a reload and after another filter.
      await page.getByText(/^Columns \(\d+\)$/).click();
      await page.getByRole("checkbox", { name: "Locality", exact: true }).check();
      await page.getByRole("checkbox", { name: "Tags", exact: true }).uncheck();
      await page.reload();
      await _records(page, "5 records");
      expect((await table.locator("thead th").allTextContents()).map((h) => h.trim())).toEqual(["", "Record", "First name", "Last name", "Email", "Locality", "State", "Last updated"]);
      expect(await table.textContent()).toContain("Lovelaceville");

      // Sort by a column: the whole list, through the API's sort (in the URL): ascending, then descending.
      await page.getByRole("button", { name: "Last name" }).click();
      await expect.poll(() => page.locator("th[aria-sort=ascending]").textContent()).toContain("Last name");
      expect(page.url()).toContain("sort=last_name");
      await expect.poll(() => _firstColumn(page)).toEqual(["Edsger Dijkstra", "Grace Hopper", "Katherine Johnson", "Ada Lovelace", "Alan Turing"]);
      await page.getByRole("button", { name: "Last name" }).click();
      await expect.poll(() => _firstColumn(page).then((c) => c[0])).toBe("Alan Turing");
      expect(await page.getByLabel("Order").inputValue()).toBe("-last_name");
      // Newest first over the whole list, and page by page.
      await page.getByLabel("Order").selectOption("-created");
      await expect.poll(() => _firstColumn(page)).toEqual(["Edsger Dijkstra", "Katherine Johnson", "Alan Turing", "Grace Hopper", "Ada Lovelace"]);
      await page.goto(`${server.url}/console/#/demo/person?page_size=2&sort=-created&page=3`);
      await expect.poll(() => _firstColumn(page)).toEqual(["Ada Lovelace"]);
      await page.goto(`${server.url}/console/#/demo/person?page_size=2&sort=-created&page=2`);
      await expect.poll(() => _firstColumn(page)).toEqual(["Alan Turing", "Grace Hopper"]);
      expect(await page.getByLabel("Order").inputValue()).toBe("-created");
      // A link made before the API could sort (`order=newest`) is still newest first.
      await page.goto(`${server.url}/console/#/demo/person?page_size=2&order=newest&page=1`);
      await expect.poll(() => _firstColumn(page)).toEqual(["Edsger Dijkstra", "Katherine Johnson"]);

      // Search: "/" focuses the box; the index finds by name and by email.
      await page.locator("h1").click();
      await page.keyboard.press("/");
      expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id)).toBe("search");
      await page.keyboard.type("lovelace");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.getByRole("status").filter({ hasText: /match/ }).textContent()).toBe("1 match for “lovelace”");
      expect(await page.getByRole("table").textContent()).toContain("ada@example.org");
      await page.getByLabel(/Search by name or email/).fill("grace@example.org");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect.poll(() => page.getByRole("table").textContent()).toContain("Grace Hopper");
      expect(decodeURIComponent(new URL(page.url()).hash)).toContain("q=grace@example.org");
      await page.getByRole("button", { name: "Clear search" }).click();
      await _records(page, "5 records");

      // Select two rows and run a bulk action: the task's progress shows live.
      await page.goto(`${server.url}/console/#/demo/person`);
      await _records(page, "5 records");
      await page.getByRole("checkbox", { name: "Select Ada Lovelace" }).check();
      await page.getByRole("checkbox", { name: "Select Alan Turing" }).check();
      const bulk = page.getByRole("form", { name: "Bulk action" });
      expect(await bulk.textContent()).toContain("2 selected");
      await bulk.getByLabel("Action").selectOption("add_tag");
      await bulk.getByLabel("Tag", { exact: true }).fill("gala");
      await bulk.getByRole("button", { name: "Run on 2" }).click();
      await expect.poll(() => bulk.getByRole("status").textContent(), { timeout: 30_000 }).toMatch(/^complete: 2 matched, 2 changed, 0 unchanged, 0 errors/);
      expect(await bulk.getByRole("progressbar").getAttribute("value")).toBe("1");
      await page.screenshot({ path: `${IMG}console-bulk-1280.png`, fullPage: true });
      const tagged = (await (await fetch(`${server.url}/api/v1/demo/person/?tags=gala`, { headers: _auth() })).json()) as { results: { id: string }[] };
      expect(tagged.results.map((r) => r.id).sort()).toEqual([ids[0], ids[2]].sort());
      // The list shows the new tags live (the feed), in the column chosen back.
      await page.getByText(/^Columns \(\d+\)$/).click();
      await page.getByRole("checkbox", { name: "Tags", exact: true }).check();
      await expect.poll(() => table.textContent()).toContain("gala");

      // Export the filtered list: the file holds the filtered records, every page, the columns shown.
      await page.goto(`${server.url}/console/#/demo/person?tags=gala&page_size=1`);
      await _records(page, "2 records");
      const csv = await _download(page, "Export CSV");
      expect(csv.name).toBe("demo-person.csv");
      const rows = parse(csv.body.toString("utf8")) as string[][];
      expect(rows[0]).toEqual(["id", "state", "created", "last_updated", "first_name", "last_name", "email", "locality", "tags"]);
      expect(rows.slice(1).map((r) => r[5]).sort()).toEqual(["Lovelace", "Turing"]);
      expect(rows[1]![8]).toBe("gala");
      const xlsx = await _download(page, "Export XLSX");
      expect(xlsx.name).toBe("demo-person.xlsx");
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.body as unknown as ExcelJS.Buffer);
      const sheet = book.worksheets[0]!;
      const values = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
      expect(values[0]).toEqual(rows[0]);
      expect(values.slice(1).map((r) => r[5]).sort()).toEqual(["Lovelace", "Turing"]);
      await page.screenshot({ path: `${IMG}console-work-list-1280.png`, fullPage: true });

      // 390 pixels: nothing scrolls sideways, no word is cut.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.url}/console/#/demo/person`);
      await page.reload();
      await _records(page, "5 records");
      await _noHorizontalScroll(page);
      expect(await _brokenWords(page)).toEqual([]);
      await page.getByRole("checkbox", { name: "Select Grace Hopper" }).check();
      await page.screenshot({ path: `${IMG}console-work-list-390.png`, fullPage: true });
    } finally {
      await context.close();
    }
  }, 240_000);

  it("memberships are titled by plan and member in lists and in references to them, at 1280 and 390 px", async () => {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await _signedIn(context, STAFF);
      try {
        await page.goto(`${server.url}/console/#/demo/membership`);
        await _records(page, "3 records");
        await expect.poll(() => _firstColumn(page).then((c) => [...c].sort())).toEqual(["Full member — Ada Lovelace", "Membership — Alan Turing", "Membership — Grace Hopper"]);
        expect(await page.getByRole("table").textContent()).not.toContain("empty membership");
        await _noHorizontalScroll(page);
        await page.screenshot({ path: `${IMG}console-memberships-${width}.png`, fullPage: true });
        // A payment's reference to a membership: the membership's title, as a link; its picker lists titles too.
        await page.goto(`${server.url}/console/#/demo/payment`);
        await page.locator("tbody tr a").first().click();
        const field = page.locator(".picker").filter({ has: page.getByRole("button", { name: "Change Membership" }) });
        await expect.poll(() => field.getByRole("link").textContent()).toBe("Full member — Ada Lovelace");
        await page.getByRole("button", { name: "Change Membership" }).click();
        await expect.poll(() => field.locator(".picker-results").textContent()).toContain("Membership — Grace Hopper");
        expect(await field.locator(".picker-results").textContent()).not.toContain("empty membership");
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it("a person's story: memberships, bookings, payments, data events, and the history as a timeline", async () => {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await _signedIn(context, STAFF);
      try {
        await page.goto(`${server.url}/console/#/demo/person/${adaId}`);
        // Details and Story are tabs under the header: the story is one click away, not below 75 fields.
        const tabs = page.getByRole("tablist", { name: "Person" });
        await tabs.waitFor();
        expect(await page.getByRole("tab", { name: "Details" }).getAttribute("aria-selected")).toBe("true");
        await page.getByRole("form", { name: "Fields" }).waitFor();
        const tabsBox = (await tabs.boundingBox())!;
        expect(tabsBox.y).toBeLessThan(900); // in the first screen, under the header
        // The header's dates are dates people read (no microseconds); the data events are listed once, in the story.
        const envelope = (await page.locator(".envelope").textContent())!;
        expect(envelope).not.toMatch(/T\d\d:|\.\d{6}/);
        expect(envelope).toMatch(/Created.*\d{4}/);
        expect(await page.getByRole("heading", { name: "Data events about it" }).count()).toBe(0);
        await page.getByRole("tab", { name: "Story" }).click();
        expect(await page.getByRole("form", { name: "Fields" }).count()).toBe(0); // hidden, still mounted
        const story = page.getByRole("region", { name: "Their story" });
        await expect.poll(() => story.getByRole("heading", { name: /Memberships/ }).textContent()).toBe("Memberships (1)");
        await expect.poll(() => story.getByRole("heading", { name: /Bookings/ }).textContent()).toBe("Bookings (1)");
        await expect.poll(() => story.getByRole("heading", { name: /Payments/ }).textContent()).toBe("Payments (1)");
        await expect.poll(() => story.getByRole("heading", { name: /Data events/ }).textContent()).toMatch(/^Data events \([1-9]\d*\)$/);
        const membership = story.getByRole("list", { name: /Memberships/ }).getByRole("link");
        expect(await membership.getAttribute("href")).toMatch(/^#\/demo\/membership\/[0-9a-f]{24}$/);
        expect(await membership.textContent()).toBe("Full member — Ada Lovelace");
        expect(await story.getByRole("list", { name: /Payments/ }).getByRole("link").getAttribute("href")).toMatch(/^#\/demo\/payment\//);
        expect(await story.getByRole("list", { name: /Bookings/ }).getByRole("link").getAttribute("href")).toMatch(/^#\/demo\/ticket\//);
        // The history: who, through which application, which fields.
        const history = story.getByRole("list", { name: "History" });
        await expect.poll(() => history.textContent()).toContain(`by ${STAFF} through Tests/browser/1 — Job title, Known as`);
        expect(await history.locator("li").count()).toBeGreaterThanOrEqual(2);
        await _noHorizontalScroll(page);
        await page.screenshot({ path: `${IMG}console-person-${width}.png`, fullPage: true });
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it("the dashboard draws its charts; the outbox is shown to administrators only", async () => {
    for (const [user, width] of [[STAFF, 1280], [ADMIN, 1280], [STAFF, 390]] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await _signedIn(context, user);
      try {
        await page.goto(`${server.url}/console/#/demo/_dashboard`);
        const charts = user === ADMIN ? 4 : 3;
        await expect.poll(() => page.locator("figure.chart canvas").count(), { timeout: 20_000 }).toBe(charts);
        const renewals = page.getByRole("img", { name: /^Memberships expiring and lapsed/ });
        expect(await renewals.getAttribute("aria-label")).toBe("Memberships expiring and lapsed: Expire within 30 days 1, Within 60 days 1, Within 90 days 2, Lapsed in the last 90 days 1");
        expect(await page.getByRole("img", { name: /^Memberships by status/ }).getAttribute("aria-label")).toMatch(/active 2.*lapsed 1|lapsed 1.*active 2/);
        expect(await page.getByRole("img", { name: /^New people per month/ }).getAttribute("aria-label")).toMatch(/ 5$/);
        // Something is drawn: the bars' canvas has coloured pixels.
        expect(await _inkedPixels(page)).toBeGreaterThan(100);
        const nav = page.getByRole("navigation", { name: "Sections" });
        await nav.getByRole("link", { name: "Triggers" }).waitFor();
        expect(await nav.getByRole("link", { name: "Outbox" }).count()).toBe(user === ADMIN ? 1 : 0);
        await _noHorizontalScroll(page);
        await page.screenshot({ path: `${IMG}console-dashboard-${width}${user === ADMIN ? "-admin" : ""}.png`, fullPage: true });
        if (user === STAFF && width === 1280) {
          await page.goto(`${server.url}/console/#/demo/_outbox`);
          await expect.poll(() => page.getByRole("alert").textContent()).toBe("The outbox is for administrators; this account cannot open it.");
        }
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it("dark mode follows the system, with readable text", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    const page = await _signedIn(context, STAFF);
    try {
      await page.goto(`${server.url}/console/#/demo/person`);
      await _records(page, "5 records");
      const bg = await page.evaluate(() => {
        const w = globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string }; document: { documentElement: unknown } };
        return w.getComputedStyle(w.document.documentElement).backgroundColor;
      });
      expect(bg).toBe("rgb(21, 24, 28)");
      const { lowContrast } = await import("./console-contrast.js");
      expect(await lowContrast(page)).toEqual([]);
      await page.screenshot({ path: `${IMG}console-list-dark-1280.png`, fullPage: true });
      await page.goto(`${server.url}/console/#/demo/_dashboard`);
      await expect.poll(() => page.locator("figure.chart canvas").count(), { timeout: 20_000 }).toBe(3);
      expect(await lowContrast(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("axe: no serious or critical violation on any page, at 1280 and 390 pixels, light and dark", async () => {
    const pages = [
      "#/",
      "#/demo",
      "#/demo/person",
      "#/demo/person?q=lovelace",
      `#/demo/person/${adaId}`,
      "#/demo/membership",
      "#/demo/_dashboard",
      "#/demo/_triggers",
      "#/demo/_tasks",
      "#/demo/_outbox",
    ];
    const found: string[] = [];
    for (const [width, scheme] of [[1280, "light"], [390, "light"], [1280, "dark"]] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      try {
        // The sign-in page, then every page as an administrator (who may open them all).
        const page = await context.newPage();
        await page.goto(`${server.url}/console/`);
        await page.getByLabel("Username").waitFor();
        found.push(...(await _axe(page, `sign-in ${width} ${scheme}`)));
        await _signInOn(page, ADMIN);
        for (const hash of pages) {
          await page.goto(`${server.url}/console/${hash}`);
          await page.locator("main h1, main [role=alert]").first().waitFor();
          await page.waitForLoadState("networkidle").catch(() => undefined);
          found.push(...(await _axe(page, `${hash} ${width} ${scheme}`)));
        }
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 240_000);

  it("10,000 persons: the list, newest first, a person and the dashboard render (times reported)", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await _signedIn(context, STAFF);
    const times: Record<string, number> = {};
    try {
      const bigId = ((await (await fetch(`${server.url}/api/v1/big/person/?page_size=1&page=5000`, { headers: _auth() })).json()) as { results: { id: string }[] }).results[0]!.id;
      const cases: [string, string, () => Promise<unknown>][] = [
        ["list", "#/big/person", () => _records(page, `${BIG} records`)],
        ["list newest first", "#/big/person?sort=-created", () => expect.poll(() => _firstColumn(page).then((c) => c[0])).toBe(`Person${BIG - 1} Surname${(BIG - 1) % 997}`)],
        ["list by last name, Z to A", "#/big/person?sort=-last_name", () => expect.poll(() => _firstColumn(page).then((c) => c[0])).toBe("Person9969 Surname996")],
        ["list by last name, page 200", "#/big/person?sort=last_name&page=200", () => expect.poll(() => _firstColumn(page).then((c) => c[0])).toMatch(/^Person\d+ Surname/)],
        ["list filtered", "#/big/person?last_name=Surname5", () => _records(page, "11 records")],
        ["search", "#/big/person?q=person4242", () => expect.poll(() => page.getByRole("table").textContent()).toContain("Person4242")],
        ["person", `#/big/person/${bigId}`, () => page.getByLabel("First name", { exact: true }).waitFor()],
        ["person's story", `#/big/person/${bigId}`, async () => (await page.getByRole("tab", { name: "Story" }).click(), await page.getByRole("heading", { name: /History/ }).waitFor())],
        ["dashboard", "#/big/_dashboard", () => expect.poll(() => page.locator("figure.chart canvas").count(), { timeout: 60_000 }).toBe(2)],
      ];
      // The API requests each page makes (the change feed's stream left out).
      let requests = 0;
      page.on("request", (r) => void (r.url().includes("/api/") && !r.url().includes("/changes") && requests++));
      const asked: Record<string, number> = {};
      for (const [name, hash, ready] of cases) {
        await page.goto(`${server.url}/console/#/`);
        await page.getByRole("heading", { name: "Choose a flock" }).waitFor();
        await page.waitForLoadState("networkidle").catch(() => undefined);
        requests = 0;
        const start = Date.now();
        await page.evaluate((h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h), hash);
        await ready();
        times[name] = Date.now() - start;
        asked[name] = requests;
      }
      console.log(`console render times with ${BIG} persons (ms, hash change to content shown): ${JSON.stringify(times)}`);
      console.log(`API requests per page with ${BIG} persons: ${JSON.stringify(asked)}`);
    } finally {
      await context.close();
    }
  }, 240_000);

  // --- helpers ---

  async function _signedIn(context: BrowserContext, user: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${server.url}/console/`);
    await _signInOn(page, user);
    return page;
  }

  async function _signInOn(page: Page, user: string): Promise<void> {
    await page.getByLabel("Username").fill(user);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
  }

  async function _records(page: Page, text: string): Promise<void> {
    await expect.poll(() => page.getByRole("status").filter({ hasText: /records?$/ }).first().textContent(), { timeout: 30_000 }).toBe(text);
  }

  async function _firstColumn(page: Page): Promise<string[]> {
    return (await page.locator("main table tbody tr td:nth-child(2)").allTextContents()).map((t) => t.trim());
  }

  async function _download(page: Page, button: string): Promise<{ name: string; body: Buffer }> {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
    return { name: download.suggestedFilename(), body: readFileSync((await download.path())!) };
  }

  async function _axe(page: Page, where: string): Promise<string[]> {
    const result = await new AxeBuilder({ page }).analyze();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`);
  }

  async function _inkedPixels(page: Page): Promise<number> {
    return page.evaluate(() => {
      const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ width: number; height: number; getContext(k: string): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } }> } }).document;
      let n = 0;
      for (const c of Array.from(d.querySelectorAll("figure.chart canvas"))) {
        const px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) n++;
      }
      return n;
    });
  }

  /** Words of the page's tables that the layout cut over two lines (a word in two boxes). */
  async function _brokenWords(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      type TextNode = { textContent: string | null };
      const d = (globalThis as unknown as {
        document: {
          createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
          querySelectorAll(s: string): ArrayLike<unknown>;
          createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void; getClientRects(): ArrayLike<unknown> };
        };
      }).document;
      const out: string[] = [];
      for (const table of Array.from(d.querySelectorAll("main table"))) {
        const walk = d.createTreeWalker(table, 4);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
          for (const m of (node.textContent ?? "").matchAll(/\S+/g)) {
            const range = d.createRange();
            range.setStart(node, m.index!);
            range.setEnd(node, m.index! + m[0].length);
            if (range.getClientRects().length > 1) out.push(m[0]);
          }
        }
      }
      return out;
    });
  }

  async function _noHorizontalScroll(page: Page): Promise<void> {
    const { scroll, client } = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return { scroll: root.scrollWidth, client: root.clientWidth };
    });
    expect(scroll).toBeLessThanOrEqual(client);
  }

  function _auth(): Record<string, string> {
    return { authorization: `Bearer ${staffKey}`, application: "Tests/browser/1" };
  }

  function _send(method: string, path: string, json: unknown): Promise<unknown> {
    return sendJson(server.url, method, path, json, staffKey);
  }
});
