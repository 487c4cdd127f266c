/**
 * The console's operator pages in headless Chromium against a real server: a member's card
 * link, references as links, delete and restore behind a confirmation naming what they do,
 * the triggers, the outbox with "Retry now", a bulk task whose progress arrives live, and
 * text contrast of at least 4.5:1 on every page visited. Skipped locally without
 * /usr/bin/chromium; fails in CI without it.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/runtime.js";
import { BROWSER_TESTS, idOf, launchChromium, sendJson, signIn, startTestServer } from "./chromium.js";
import { lowContrast } from "./console-contrast.js";

const PASSWORD = "console test password";

describe.skipIf(!BROWSER_TESTS)("the console's operator pages in headless Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let key: string;
  let person: string;
  let member: string;

  beforeAll(async () => {
    server = await startTestServer({
      flocks: [{ identifier: "demo", name: "Demo Society" }],
      users: [{ username: "admin@example.org", password: PASSWORD, flocks: ["*"] }],
      // A receiver that is never there: the delivery stays pending with its last error.
      webhooks: { allowInsecureUrls: true, firstRetryDelayMs: 3_600_000 },
      triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "http://127.0.0.1:9/hook", comment: "tell the CRM" }],
    });
    key = await signIn(server.url, "admin@example.org", PASSWORD);
    person = _id(await _send("POST", "/api/v1/demo/person/", { first_name: "Ada", last_name: "Lovelace", tags: ["gala"] }, key));
    member = _id(await _send("POST", "/api/v1/demo/member/", { member: `/demo/person/${person}/`, membership_number: "M-1", start_date: "2026-01-01", end_date: "2030-12-31" }, key));
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("card link, references, delete and restore, triggers, outbox retry, live task progress, contrast", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/console/`);
      await page.getByLabel("Username").fill("admin@example.org");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      // The key sees one flock: its page opens without a chooser.
      await page.getByRole("link", { name: "member", exact: true }).waitFor();
      await _contrastOk(page);

      // A member: its signed card link, and its reference to the person as a link.
      await page.goto(`${server.url}/console/#/demo/member/${member}`);
      const card = page.getByRole("link", { name: "Member card" });
      const href = (await card.getAttribute("href"))!;
      expect(href).toMatch(new RegExp(`/api/v2/demo/member/${member}/card/\\?signature=[0-9a-f]{64}$`));
      expect((await fetch(href)).status).toBe(200);
      await _contrastOk(page);
      // The member field names the person it references, as a link.
      await page.getByRole("form", { name: "Fields" }).getByRole("link", { name: "Ada Lovelace", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor();

      // Delete and restore, each confirmed in a dialog that says what it does.
      await page.getByRole("button", { name: "Delete" }).click();
      const dialog = page.getByRole("dialog");
      expect(await dialog.textContent()).toContain("marks the record deleted");
      await dialog.getByRole("button", { name: "Delete" }).click();
      await expect.poll(() => page.locator(".envelope").textContent()).toContain("deleted");
      await page.getByRole("button", { name: "Restore" }).click();
      expect(await dialog.textContent()).toContain("brings the deleted record back");
      await dialog.getByRole("button", { name: "Restore" }).click();
      await expect.poll(() => page.locator(".envelope").textContent()).toMatch(/Stateupdated/);
      await page.getByRole("button", { name: "Obfuscate" }).click();
      expect(await dialog.textContent()).toContain("cannot be undone");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ada Lovelace");

      // The flock's triggers.
      await page.getByRole("link", { name: "Triggers" }).click();
      await expect.poll(() => page.getByRole("table").textContent()).toContain("contact_created");
      expect(await page.getByRole("table").textContent()).toContain("tell the CRM");

      // The outbox: the undeliverable webhook, its last error, and retry now.
      await page.getByRole("link", { name: "Outbox" }).click();
      await expect.poll(() => page.getByRole("table").textContent(), { timeout: 15_000 }).toMatch(/send-json-webhook/);
      await expect.poll(async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        return page.getByRole("table").textContent();
      }, { timeout: 15_000 }).toMatch(/refused|ECONNREFUSED|connect/i);
      await page.getByRole("button", { name: "Retry now" }).first().click();
      await expect.poll(() => page.getByRole("status").filter({ hasText: /is due now/ }).count()).toBe(1);
      await _contrastOk(page);

      // Tasks: a bulk action started through the API shows up and completes live.
      await page.getByRole("link", { name: "Tasks" }).click();
      await page.getByText("No tasks yet.").waitFor();
      await _send("POST", "/api/v1/demo/bulk_action/", { action: "add_tag", query: { tags: "gala" }, value: "thanked", description: "thank the gala guests" }, key, 202);
      const bar = page.getByRole("progressbar", { name: /thank the gala guests/ });
      await bar.waitFor({ timeout: 15_000 });
      await expect.poll(() => bar.getAttribute("aria-label"), { timeout: 30_000 }).toBe("thank the gala guests: complete");
      expect(await page.locator(".tasks").textContent()).toContain("1 matched, 1 changed");
      await _contrastOk(page);
      // The check itself finds pale text (#999 on white is 2.85:1). The colour is set through
      // the CSSOM: the console's CSP refuses inline style attributes.
      await page.evaluate(() => {
        type P = { textContent: string; style: { color: string } };
        const d = (globalThis as unknown as { document: { createElement(t: string): P; body: { append(p: P): void } } }).document;
        const p = d.createElement("p");
        p.textContent = "pale";
        p.style.color = "#999";
        d.body.append(p);
      });
      expect(await lowContrast(page)).toEqual([expect.objectContaining({ text: "pale", ratio: 2.85 })]);
    } finally {
      await context.close();
    }
  }, 120_000);

  async function _contrastOk(page: Page): Promise<void> {
    expect(await lowContrast(page)).toEqual([]);
  }

  function _send(method: string, path: string, json: unknown, bearer?: string, status?: number): Promise<unknown> {
    return sendJson(server.url, method, path, json, bearer, status);
  }
});

const _id = idOf;
