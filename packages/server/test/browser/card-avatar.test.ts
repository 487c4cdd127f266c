/**
 * The card and the avatar as a person sees them: a real server (`startServer`, port 0) and
 * Debian's headless Chromium driven by playwright-core. The card page must show the
 * member's name and the flock's name; the avatar must load in an `<img>` at the size asked
 * for and not be blank. Without /usr/bin/chromium these tests are skipped locally and FAIL
 * in CI (CI=true), where `.ci/run` installs it.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { cardUrl } from "../../src/derived/card-signature.js";
import { startServer, type RunningServer } from "../../src/runtime.js";
import { BROWSER_TESTS, idOf, launchChromium, sendJson } from "./chromium.js";

const SECRET = "browser-test-secret-0123456789";
const PASSWORD = "browser test password";

describe.skipIf(!BROWSER_TESTS)("in headless Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let key: string;
  let person: string;
  let member: string;

  beforeAll(async () => {
    server = await startServer({
      db: ":memory:",
      host: "127.0.0.1",
      port: 0,
      config: parseConfig({
        secret: SECRET,
        flocks: [{ identifier: "demo", name: "Demo Society" }],
        users: [{ username: "staff@example.org", password: PASSWORD, flocks: ["demo"] }],
      }),
    });
    key = ((await _post("/api/v1/auth/", { username: "staff@example.org", password: PASSWORD })) as { api_key: string }).api_key;
    person = _id(await _post("/api/v1/demo/person/", { first_name: "Ada", last_name: "Lovelace" }, key));
    member = _id(
      await _post(
        "/api/v1/demo/member/",
        { member: `/demo/person/${person}/`, membership_number: "M-0042", membership_type: "Life", start_date: "2026-01-01", end_date: "2030-12-31" },
        key,
      ),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the member's name, membership and flock on the signed card", async () => {
    const page = await browser.newPage();
    try {
      const res = await page.goto(cardUrl(server.url, SECRET, "demo", member));
      expect(res?.status()).toBe(200);
      const name = page.getByText("Ada Lovelace", { exact: true });
      expect(await name.isVisible()).toBe(true);
      const box = await name.boundingBox();
      expect(box!.width).toBeGreaterThan(50);
      expect(box!.height).toBeGreaterThan(10);
      const text = await page.innerText("body");
      for (const shown of ["M-0042", "Life", "1 January 2026", "31 December 2030"]) expect(text).toContain(shown);
      expect(text.toLowerCase()).toContain("demo society");
      expect(await page.title()).toContain("Ada Lovelace");
    } finally {
      await page.close();
    }
  });

  it("shows 'signature missing' for an unsigned card link", async () => {
    const page = await browser.newPage();
    try {
      const res = await page.goto(`${server.url}/api/v2/demo/member/${member}/card/`);
      expect(res?.status()).toBe(401);
      expect(await page.innerText("body")).toContain("signature missing");
    } finally {
      await page.close();
    }
  });

  it.each([
    { name: "PNG by default", query: "", size: 128 },
    { name: "PNG at ?size=200", query: "?size=200", size: 200 },
    { name: "SVG at ?format=svg&size=96", query: "?format=svg&size=96", size: 96 },
  ])("draws the avatar ($name) at its size, not blank", async ({ query, size }) => {
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${key}`, application: "Tests/browser/1" } });
    const page = await context.newPage();
    try {
      // A page of the server's own origin (answered by the browser, not the server), so the
      // image can be read back from a canvas.
      await page.route(`${server.url}/__avatar-test__`, (route) =>
        route.fulfill({ contentType: "text/html", body: `<!DOCTYPE html><img id="a" src="/api/v2/demo/person/${person}/avatar${query}">` }),
      );
      await page.goto(`${server.url}/__avatar-test__`);
      const seen = await page.evaluate(async () => {
        // Runs in the page; the project's type-check has no DOM library, hence `any`.
        const document = (globalThis as any).document;
        const img = document.getElementById("a");
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const ctx = canvas.getContext("2d");
        ctx.drawImage(img, 0, 0);
        const data: Uint8ClampedArray = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        const colours = new Set<number>();
        let opaque = 0;
        let light = 0;
        for (let i = 0; i < data.length; i += 4) {
          colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
          if (data[i + 3]! > 0) opaque++;
          if (data[i]! > 230 && data[i + 1]! > 230 && data[i + 2]! > 230) light++;
        }
        return { width: img.naturalWidth, height: img.naturalHeight, colours: colours.size, opaque, light, pixels: data.length / 4 };
      });
      expect([seen.width, seen.height]).toEqual([size, size]);
      expect(seen.opaque).toBe(seen.pixels); // a filled square, nothing transparent
      expect(seen.colours).toBeGreaterThan(1); // not one flat colour
      if (!query.includes("svg")) expect(seen.light).toBeGreaterThan(seen.pixels * 0.02); // white initials are drawn
    } finally {
      await context.close();
    }
  });

  function _post(path: string, json: unknown, bearer?: string): Promise<unknown> {
    return sendJson(server.url, "POST", path, json, bearer);
  }
});

const _id = idOf;
