/**
 * The console for the people who run a flock (issue 25), in Debian's headless Chromium
 * against a real server, at 1280 and 390 pixels wide:
 * - the first run on an empty database: the one flock opens without a chooser, every type
 *   is listed with its count (0 included), "New person" creates one with typed widgets (tags
 *   as chips, a boolean as a checkbox), a new membership picks its member by name;
 * - safe editing: a second client's PUT while a field is being edited keeps the typed text
 *   and shows "Changed elsewhere" with the other value; "Keep mine" then saving meets the
 *   version check (409, said beside the button); reload takes the other values; Ctrl+S
 *   saves; a live change with no edit pending is taken at once and said;
 * - a server refusal names its field: the message sits beside it and focus moves there;
 * - `records-service seed` through the real CLI: the console's type counts are the counts
 *   it printed, a person's form is grouped and a membership is titled by plan and member.
 * Screenshots go to docs/img/. Skipped locally without /usr/bin/chromium; fails in CI.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/runtime.js";
import { startCli } from "../e2e/spawn-cli.js";
import { BROWSER_TESTS, idOf, launchChromium, sendJson, signIn, startTestServer } from "./chromium.js";
import { startServer } from "../../src/runtime.js";
import { parseConfig } from "../../src/config.js";

const PASSWORD = "console editing password";
const IMG = fileURLToPath(new URL("../../../../docs/img/", import.meta.url));
const CONFIG = {
  flocks: [{ identifier: "demo", name: "Demo Society" }],
  users: [{ username: "staff@example.org", password: PASSWORD, flocks: ["demo"] }],
};

describe.skipIf(!BROWSER_TESTS)("the console's editing and first run in headless Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it.each([1280, 390])("first run on an empty database at %i px: every type with its count, New record with typed widgets", async (width) => {
    const server = await startTestServer(CONFIG);
    const key = await signIn(server.url, "staff@example.org", PASSWORD);
    const page = await _page(width);
    try {
      await _signIn(page, server);
      // One flock: no chooser, straight to its types.
      await expect.poll(() => new URL(page.url()).hash).toBe("#/demo");
      await page.getByRole("heading", { name: "Resource types in demo" }).waitFor();
      expect(await _count(page, "person")).toBe("0");
      expect(await _count(page, "membership")).toBe("0");
      expect(await page.getByText("This flock has no records yet.").count()).toBe(1);
      await _noHorizontalScroll(page);
      await page.screenshot({ path: `${IMG}console-first-run-${width}.png`, fullPage: width === 1280 ? false : true });

      // A new person, with tags as chips and a boolean as a checkbox.
      await page.getByRole("link", { name: "New person" }).first().click();
      await page.getByRole("heading", { name: "New person" }).waitFor();
      await page.getByLabel("First name", { exact: true }).fill("Ada");
      await page.getByLabel("Last name", { exact: true }).fill("Lovelace");
      const email = page.getByLabel("Email", { exact: true });
      await email.fill("ada@example.org");
      await email.press("Enter");
      const tags = page.getByLabel("Tags", { exact: true });
      await tags.fill("vip");
      await tags.press("Enter");
      await tags.fill("donor, committee");
      expect(await page.getByRole("list", { name: "Tags entries" }).getByRole("listitem").allTextContents()).toEqual(["vip×", "donor×", "committee×"]);
      await page.getByRole("button", { name: "Remove committee" }).click();
      await page.getByRole("button", { name: /Show all fields/ }).click();
      const optOut = page.getByLabel("Email opt out", { exact: true });
      expect(await optOut.getAttribute("type")).toBe("checkbox");
      await optOut.check();
      expect(await page.getByLabel("Date of birth", { exact: true }).getAttribute("type")).toBe("date");
      await page.getByLabel("Date of birth", { exact: true }).fill("1815-12-10");
      // Derived fields are not offered on a new record.
      expect(await page.locator('[id="f-formatted_name"]').count()).toBe(0);
      if (width === 1280) {
        await page.setViewportSize({ width: 1280, height: 2000 });
        await page.screenshot({ path: `${IMG}console-new-person-1280.png` });
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await page.getByRole("button", { name: "Create person" }).click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Ada Lovelace");
      const personId = new URL(page.url()).hash.split("/")[3]!;
      const stored = ((await _get(server, key, `/api/v1/demo/person/${personId}/`)) as { data: Record<string, unknown> }).data;
      expect(stored).toMatchObject({ first_name: "Ada", last_name: "Lovelace", email: ["ada@example.org"], tags: ["vip", "donor"], email_opt_out: true, date_of_birth: "1815-12-10" });
      // On the record's page the derived name is read-only text, the tags are chips.
      expect(await page.locator('input[id="f-formatted_name"]').count()).toBe(0);
      expect(await page.getByRole("list", { name: "Tags entries" }).getByRole("listitem").allTextContents()).toEqual(["vip×", "donor×"]);

      // A new membership: its member picked by name, its dates as date boxes; titled by plan and member.
      await page.goto(`${server.url}/console/#/demo/membership`);
      await page.getByRole("link", { name: "New membership" }).click();
      await page.getByRole("button", { name: "Change Member" }).click();
      await page.getByLabel("Search person for Member").fill("love");
      await page.getByRole("button", { name: "Ada Lovelace" }).click();
      await page.getByLabel("Membership type", { exact: true }).fill("Family");
      expect(await page.getByLabel("Start date", { exact: true }).getAttribute("type")).toBe("date");
      await page.getByLabel("Start date", { exact: true }).fill("2026-01-01");
      await page.getByLabel("Auto renew", { exact: true }).check();
      await page.getByRole("button", { name: "Create membership" }).click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Family — Ada Lovelace");
      const membershipId = new URL(page.url()).hash.split("/")[3]!;
      const membership = ((await _get(server, key, `/api/v1/demo/membership/${membershipId}/`)) as { data: Record<string, unknown> }).data;
      expect(membership).toMatchObject({ member: { ref: `/demo/person/${personId}/`, display_value: "Ada Lovelace" }, membership_type: "Family", start_date: "2026-01-01", auto_renew: true });
      await _noHorizontalScroll(page);

      // The membership list titles it the same way (its member named, not a URI).
      await page.goto(`${server.url}/console/#/demo/membership`);
      await expect.poll(() => page.locator("main table tbody tr td:nth-child(2)").first().textContent()).toBe("Family — Ada Lovelace");

      // Back on the flock's page the counts moved (live).
      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "demo" }).click();
      await expect.poll(() => _count(page, "person")).toBe("1");
      await expect.poll(() => _count(page, "membership")).toBe("1");
    } finally {
      await page.context().close();
      await server.close();
    }
  }, 120_000);

  it.each([1280, 390])("safe editing at %i px: another client's change keeps the typed text; conflicts and field errors are said where the user looks", async (width) => {
    const server = await startTestServer(CONFIG);
    const key = await signIn(server.url, "staff@example.org", PASSWORD);
    const id = idOf(await sendJson(server.url, "POST", "/api/v1/demo/person/", { first_name: "Grace", last_name: "Hopper", email: ["grace@example.org"] }, key));
    const path = `/api/v1/demo/person/${id}/`;
    const page = await _page(width);
    try {
      await _signIn(page, server);
      await page.goto(`${server.url}/console/#/demo/person/${id}`);
      const first = page.getByLabel("First name", { exact: true });
      await first.waitFor();
      await expect.poll(() => page.getByRole("status").filter({ hasText: /^Live$/ }).count()).toBe(1);

      // Typing, not saved; a second client changes the record.
      await first.fill("Amazing Grace");
      await sendJson(server.url, "PUT", path, { first_name: "Rear Admiral", last_name: "Murray Hopper" }, key);
      const notice = page.getByRole("alert").filter({ hasText: "Changed elsewhere" });
      await notice.waitFor({ timeout: 10_000 });
      expect(await first.inputValue()).toBe("Amazing Grace");
      expect(await notice.textContent()).toContain("Murray Hopper");
      expect(await notice.textContent()).toContain("yours: Amazing Grace"); // the quotes are drawn by <q>, not text
      if (width === 1280) await page.screenshot({ path: `${IMG}console-changed-elsewhere-1280.png` });

      // Keep mine, save: the version check refuses it and says so beside the button.
      await page.getByRole("button", { name: "Keep mine" }).click();
      await page.getByRole("button", { name: "Save changes" }).click();
      const bar = page.locator(".savebar [role=status]");
      await expect.poll(() => bar.textContent()).toContain("changed elsewhere since you opened it");
      await _inView(page, bar);
      expect(((await _get(server, key, path)) as { data: { first_name: string } }).data.first_name).toBe("Rear Admiral");

      // Reload takes the other values.
      await page.getByRole("button", { name: "Reload (discard my edits)" }).click();
      expect(await first.inputValue()).toBe("Rear Admiral");

      // Ctrl+S saves, at the version now shown; the result sits beside the button.
      await first.fill("Grace Brewster");
      await page.keyboard.press("Control+s");
      await expect.poll(() => bar.textContent()).toMatch(/^Saved at/);
      await _inView(page, bar);
      await expect.poll(async () => ((await _get(server, key, path)) as { data: { first_name: string } }).data.first_name).toBe("Grace Brewster");

      // With nothing pending, a change elsewhere is taken at once and said.
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Grace Brewster");
      await sendJson(server.url, "PUT", path, { last_name: "Hopper" }, key);
      await expect.poll(() => page.getByLabel("Last name", { exact: true }).inputValue(), { timeout: 10_000 }).toBe("Hopper");
      expect(await page.getByRole("status").filter({ hasText: "Updated elsewhere: Last name" }).count()).toBe(1);

      // A value the server refuses: its message beside the field, focus on it, the result in view.
      await page.getByRole("button", { name: /Show all fields/ }).click();
      await page.getByLabel("Notes", { exact: true }).fill("x".repeat(262_145));
      await page.getByLabel("First name", { exact: true }).focus();
      await page.getByRole("button", { name: "Save changes" }).click();
      const message = page.locator("#e-notes");
      await message.waitFor();
      expect(await message.textContent()).toContain("at most 262144");
      expect(await page.getByLabel("Notes", { exact: true }).getAttribute("aria-invalid")).toBe("true");
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id)).toBe("f-notes");
      await _inView(page, bar);
      expect(await bar.textContent()).toContain("Not saved");
      await _noHorizontalScroll(page);
      if (width === 390) await page.screenshot({ path: `${IMG}console-field-error-390.png` });

      // The story is a tab away; switching to it and back keeps what was typed.
      await page.getByLabel("Notes", { exact: true }).fill("");
      await first.fill("Typed, not saved");
      await page.getByRole("tab", { name: "Story" }).click();
      await page.getByRole("heading", { name: /Memberships/ }).waitFor();
      await page.getByRole("tab", { name: "Details" }).click();
      expect(await first.inputValue()).toBe("Typed, not saved");

      // Deleting with unsaved edits asks first and says they would be lost; Cancel keeps them.
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Delete this record?" });
      await expect.poll(() => dialog.getByRole("alert").textContent()).toContain("unsaved change");
      if (width === 390) await page.screenshot({ path: `${IMG}console-delete-unsaved-390.png` });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      expect(await first.inputValue()).toBe("Typed, not saved");
      expect(((await _get(server, key, path)) as { meta: { state: string } }).meta.state).not.toBe("deleted");
      // Confirmed, it deletes (and the edits go, as the dialog said).
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await dialog.getByRole("button", { name: "Delete and discard my edits" }).click();
      await expect.poll(async () => ((await _get(server, key, path)) as { meta: { state: string } }).meta.state).toBe("deleted");
      // With nothing pending, restoring asks the plain question.
      await page.getByRole("button", { name: "Restore", exact: true }).click();
      const restore = page.getByRole("dialog", { name: "Restore this record?" });
      expect(await restore.getByRole("alert").count()).toBe(0);
      await restore.getByRole("button", { name: "Restore", exact: true }).click();
      await expect.poll(async () => ((await _get(server, key, path)) as { meta: { state: string } }).meta.state).not.toBe("deleted");
    } finally {
      await page.context().close();
      await server.close();
    }
  }, 120_000);

  it("records-service seed fills a flock through the real CLI: the console counts what it printed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "console-seed-"));
    const db = join(dir, "records.db");
    const server = await startServer({ db, host: "127.0.0.1", port: 0, passwordCost: { N: 1024, r: 8, p: 1 }, config: parseConfig(CONFIG) });
    const page = await _page(1280);
    try {
      const cli = startCli(["seed", "--flock", "demo", "--persons", "24", "--seed", "7", "--db", db]);
      expect(await cli.exited(120_000)).toBe(0);
      const line = cli.stdout.join("\n");
      const m = /seeded flock demo: (\d+) person, (\d+) membership, (\d+) payment, (\d+) booking records/.exec(line);
      expect(m, line).not.toBeNull();
      const [persons, memberships, payments, bookings] = m!.slice(1).map(Number) as [number, number, number, number];
      expect(persons).toBe(24);
      expect(memberships).toBeGreaterThan(0);
      expect(payments).toBe(memberships);
      expect(bookings).toBeGreaterThan(0);

      await _signIn(page, server);
      await page.getByRole("heading", { name: "Resource types in demo" }).waitFor();
      await expect.poll(() => _count(page, "person")).toBe(String(persons));
      expect(await _count(page, "membership")).toBe(String(memberships));
      expect(await _count(page, "payment")).toBe(String(payments));
      expect(await _count(page, "booking")).toBe(String(bookings));
      await page.screenshot({ path: `${IMG}console-seeded-1280.png` });

      // A seeded person's page: the grouped form, labels in words.
      await page.getByRole("link", { name: "person", exact: true }).click();
      await page.locator("tbody tr a").first().click();
      for (const legend of ["Name", "Contact", "Address"]) await page.getByRole("group", { name: legend, exact: true }).waitFor();
      expect(await page.getByRole("list", { name: "Email entries" }).getByRole("listitem").count()).toBe(1);
      // A viewport as tall as the form: a full-page capture would draw the sticky save bar mid-page.
      await page.setViewportSize({ width: 1280, height: 1250 });
      await page.screenshot({ path: `${IMG}console-person-form-1280.png` });

      // A membership is titled by its plan and member.
      await page.goto(`${server.url}/console/#/demo/membership`);
      await page.locator("tbody tr a").first().click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toMatch(/^(Standard|Family|Student|Concession|Life) — \S+ \S+/);
    } finally {
      await page.context().close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  async function _page(width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
    return context.newPage();
  }

  async function _signIn(page: Page, server: RunningServer): Promise<void> {
    await page.goto(`${server.url}/console/`);
    await page.getByLabel("Username").fill("staff@example.org");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.keyboard.press("Enter");
    // The one flock opens by itself.
    await page.getByRole("heading", { name: "Resource types in demo" }).waitFor();
  }

  /** The count shown for a type on the flock's page. */
  async function _count(page: Page, type: string): Promise<string | null> {
    const row = page.locator("tbody tr").filter({ has: page.getByRole("link", { name: type, exact: true }) });
    return row.locator("td.num").textContent();
  }

  async function _inView(page: Page, locator: ReturnType<Page["locator"]>): Promise<void> {
    const box = await locator.boundingBox();
    const height = page.viewportSize()!.height;
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(height);
  }

  async function _noHorizontalScroll(page: Page): Promise<void> {
    const { scroll, client } = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return { scroll: root.scrollWidth, client: root.clientWidth };
    });
    expect(scroll).toBeLessThanOrEqual(client);
  }

  async function _get(server: RunningServer, key: string, path: string): Promise<unknown> {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}`, application: "Tests/browser/1" } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return res.json();
  }
});
