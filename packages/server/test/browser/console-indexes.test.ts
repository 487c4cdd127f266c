/**
 * The console's Indexes page in headless Chromium against a real server, as a flock's staff
 * member (a core key of the flock, no administrator): reached from the navigation, it lists
 * each field's index; "Add index" adds one (its status says how far the back-fill is),
 * "Drop" drops one, "Reset" hands it back to the defaults, a bad field name shows the
 * server's refusal, and the registry (read through the API) holds what the page did. Axe
 * finds no serious or critical violation and no page scrolls sideways, at 1280 px light and
 * 390 px dark. Skipped locally without /usr/bin/chromium; fails in CI without it.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/runtime.js";
import { BROWSER_TESTS, launchChromium, signIn, startTestServer } from "./chromium.js";
import { lowContrast } from "./console-contrast.js";

const PASSWORD = "console indexes password";

type View = { type: string; field: string; status: string; source: string; flock: string };

describe.skipIf(!BROWSER_TESTS)("the console's Indexes page in headless Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({
      flocks: [{ identifier: "demo", name: "Demo Society" }],
      users: [{ username: "staff@example.org", password: PASSWORD, flocks: ["demo"] }],
    });
    key = await signIn(server.url, "staff@example.org", PASSWORD);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists, adds, drops and resets a field's index", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await _signInOn(page);
      await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Indexes" }).click();
      await page.getByRole("heading", { level: 1, name: "Indexes of demo" }).waitFor();
      expect(page.url()).toMatch(/#\/demo\/_indexes$/);
      const row = (type: string, field: string) => page.getByRole("row").filter({ has: page.getByRole("cell", { name: type, exact: true }) }).filter({ has: page.getByRole("cell", { name: field, exact: true }) });
      await row("person", "email").waitFor();
      expect(await row("person", "email").textContent()).toMatch(/declared.*default.*this flock/);
      // A field the service looks up itself offers no "Drop".
      expect(await row("person", "tags").getByRole("button").count()).toBe(0);
      await _contrastOk(page);

      // Add: type and field; the status says how far the back-fill is.
      const form = page.getByRole("form", { name: "Add an index" });
      await form.getByLabel("Type").selectOption("person");
      await form.getByRole("textbox", { name: "Field" }).fill("shoe_size");
      await form.getByRole("button", { name: "Add index" }).click();
      await expect.poll(() => page.getByRole("status").filter({ hasText: "person.shoe_size" }).textContent()).toMatch(/^person\.shoe_size: (building \d+%|declared)\.$/);
      await row("person", "shoe_size").waitFor();
      expect(await row("person", "shoe_size").textContent()).toMatch(/(building \d+%|declared)operatorthis flock/);
      expect(await form.getByRole("textbox", { name: "Field" }).inputValue()).toBe("");
      expect(await _registry()).toContainEqual(expect.objectContaining({ type: "person", field: "shoe_size", source: "operator" }));
      // While a field is being built the page looks again by itself: a change made elsewhere
      // (here through the API) shows without a click. (Once built, nothing moves and it stops.)
      if (/building/.test((await row("person", "shoe_size").textContent()) ?? "")) {
        const res = await fetch(`${server.url}/api/v1/demo/_indexes/person/first_name/`, { method: "DELETE", headers: { authorization: `Bearer ${key}`, application: "Tests/browser/1" } });
        expect(res.status).toBe(200);
        await expect.poll(() => row("person", "first_name").textContent(), { timeout: 10_000 }).toMatch(/dropped/);
        await page.getByRole("button", { name: "Reset person.first_name" }).click();
        // Built again by the server's index worker; the page looks again while it builds.
        await expect.poll(() => row("person", "first_name").textContent(), { timeout: 30_000 }).toMatch(/declareddefault/);
      }

      // A bad field name: the server's words, nothing added.
      await form.getByRole("textbox", { name: "Field" }).fill("9lives");
      await form.getByRole("button", { name: "Add index" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("bad field name");
      expect((await _registry()).some((v) => v.field === "9lives")).toBe(false);

      // Drop, then reset back to the defaults.
      await page.getByRole("button", { name: "Drop person.last_name" }).click();
      await expect.poll(() => row("person", "last_name").textContent()).toMatch(/^personlast_namedropped(, \d+% removed)?operatorthis flock/);
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await row("person", "last_name").getByRole("button", { name: /^Drop/ }).count()).toBe(0);
      expect(await _registry()).toContainEqual(expect.objectContaining({ type: "person", field: "last_name", status: "dropped" }));
      await _contrastOk(page);
      await page.getByRole("button", { name: "Reset person.last_name" }).click();
      await expect.poll(() => row("person", "last_name").textContent(), { timeout: 30_000 }).toMatch(/^personlast_namedeclareddefaultthis flock/);
      expect(await _registry()).toContainEqual(expect.objectContaining({ type: "person", field: "last_name", status: "declared", source: "default" }));

      // The added field's reset: no longer indexed, so no longer listed.
      await page.getByRole("button", { name: "Reset person.shoe_size" }).click();
      await expect.poll(() => page.getByRole("status").filter({ hasText: "person.shoe_size" }).textContent()).toBe("person.shoe_size: not indexed.");
      await expect.poll(() => row("person", "shoe_size").count()).toBe(0);

      // One type shown.
      await page.getByLabel("Show").selectOption("membership");
      await expect.poll(() => row("person", "email").count()).toBe(0);
      expect(await row("membership", "membership_number").count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("axe and layout at 1280 px light and 390 px dark", async () => {
    const found: string[] = [];
    for (const [width, scheme] of [[1280, "light"], [390, "dark"]] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      try {
        const page = await context.newPage();
        await _signInOn(page);
        await page.goto(`${server.url}/console/#/demo/_indexes`);
        await page.getByRole("cell", { name: "email", exact: true }).first().waitFor();
        const result = await new AxeBuilder({ page }).analyze();
        found.push(
          ...result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${width} ${scheme}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`),
        );
        const { scroll, client } = await page.evaluate(() => {
          const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
          return { scroll: root.scrollWidth, client: root.clientWidth };
        });
        expect(scroll).toBeLessThanOrEqual(client);
        await _contrastOk(page);
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 120_000);

  async function _signInOn(page: Page): Promise<void> {
    await page.goto(`${server.url}/console/`);
    await page.getByLabel("Username").fill("staff@example.org");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("navigation", { name: "Sections" }).waitFor();
  }

  async function _contrastOk(page: Page): Promise<void> {
    expect(await lowContrast(page)).toEqual([]);
  }

  async function _registry(): Promise<View[]> {
    const res = await fetch(`${server.url}/api/v1/demo/_indexes/`, { headers: { authorization: `Bearer ${key}`, application: "Tests/browser/1" } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { indexes: View[] }).indexes;
  }
});
