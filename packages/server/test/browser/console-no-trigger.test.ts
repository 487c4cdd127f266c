/**
 * The console warns where a flock records events but has no active trigger (nothing is
 * then queued or delivered for them), on its triggers and outbox pages, and offers the
 * outbox's held jobs as a status of their own. Skipped locally without /usr/bin/chromium;
 * fails in CI without it.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/runtime.js";
import { BROWSER_TESTS, launchChromium, sendJson, signIn, startTestServer } from "./chromium.js";

const PASSWORD = "console test password";

describe.skipIf(!BROWSER_TESTS)("the console's warning about a flock without active triggers", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({
      flocks: [{ identifier: "demo", name: "Demo Society" }, { identifier: "club", name: "The Club" }],
      users: [{ username: "admin@example.org", password: PASSWORD, flocks: ["*"] }],
      webhooks: { allowInsecureUrls: true, firstRetryDelayMs: 3_600_000 },
      // club's one trigger is inactive: its events queue nothing either.
      triggers: [{ flock: "club", trigger: "contact_created", action: "send-json-webhook", url: "http://127.0.0.1:9/hook", active: false }],
    });
    const key = await signIn(server.url, "admin@example.org", PASSWORD);
    await sendJson(server.url, "POST", "/api/v1/club/person/", { first_name: "Ada", last_name: "Lovelace" }, key, 201);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("warns on club (events, no active trigger), not on demo (no events)", { timeout: 120_000 }, async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}/console/`);
    await page.getByLabel("Username").fill("admin@example.org");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: /Demo Society/ }).waitFor();

    await page.goto(`${server.url}/console/#/club/_triggers`);
    const warning = page.getByText(/has 1 data event but no active trigger/);
    await warning.waitFor({ timeout: 30_000 });
    expect(await warning.textContent()).toContain("config apply");
    await page.goto(`${server.url}/console/#/club/_outbox`);
    await page.getByText(/has 1 data event but no active trigger/).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "held" }).click();
    await page.getByText("No held jobs.").waitFor({ timeout: 30_000 });

    await page.goto(`${server.url}/console/#/demo/_triggers`);
    await page.getByText("No triggers are configured for this flock", { exact: false }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(/no active trigger/).count()).toBe(0);
  });
});
