/**
 * Issue 20 (points 6 and 7): the console against hostile stored values and hostile framing,
 * through the real CLI (`records-service serve`) in Debian's headless Chromium. Values with
 * markup, malformed %-escapes (one planted by a member as a reservation's cancellation
 * reason), file-path lookalikes, huge and odd unicode strings, wrong JSON types and invalid
 * dates are stored in every kind of field of records of several types; then every console
 * page is opened and must show its main content with no uncaught error, no CSP violation,
 * no error fallback and no injected script run. A page of another origin that frames the
 * console gets nothing: the app's scripts are never loaded. Skipped locally without
 * /usr/bin/chromium; fails in CI without it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, startCli } from "../e2e/spawn-cli.js";
import { BROWSER_TESTS, idOf, launchChromium, sendJson } from "./chromium.js";

const PASSWORD = "console hostile password";
const MEMBER_EMAIL = "member@example.org";
const MEMBER_PASSWORD = "member hostile password";
/** Runs if any of the stored markup is ever parsed as HTML (the CSP would also report it). */
const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>`;
const MALFORMED = "%E0%A4%A";
const FLOCK_NAME = `Demo ${XSS} ${MALFORMED}`;
const FALLBACK = /could not be shown/;
/** Strings with one cross the browser protocol as U+FFFD, so they are not compared. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe.skipIf(!BROWSER_TESTS)("the console with hostile stored values (real CLI, Chromium)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "records-console-hostile-"));
  let url: string;
  let browser: Browser;
  let key: string;
  /** Every record stored, by type: its id and data as the API answers them. */
  const records: { type: string; id: string }[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const config = join(tmp, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        flocks: [{ identifier: "demo", name: FLOCK_NAME }],
        users: [{ username: "admin@example.org", password: PASSWORD, flocks: ["*"] }],
        // A receiver that is never there: the delivery stays in the outbox with its error.
        webhooks: { allowInsecureUrls: true, firstRetryDelayMs: 3_600_000 },
        triggers: [{ flock: "demo", trigger: "contact_created", action: "send-json-webhook", url: "http://127.0.0.1:9/hook", comment: `${XSS} ${MALFORMED}` }],
      }),
    );
    const cli = startCli(["serve", "--port", "0", "--db", join(tmp, "records.db"), "--config", config, "--quiet"]);
    url = /listening on (http:\/\/\S+)/.exec(await cli.line(/listening on http:\/\//, 60_000))![1]!;
    key = ((await _send("POST", "/api/v1/auth/", { username: "admin@example.org", password: PASSWORD })) as { api_key: string }).api_key;
    await _seed();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    killAll();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("the real server sends the console's headers on its page, assets and 404s", async () => {
    const page = await fetch(`${url}/console/`);
    const html = await page.text();
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    for (const [path, status] of [["/", 302], ["/console/", 200], [asset, 200], ["/console/assets/none.js", 404], [`/console/${MALFORMED}`, 404]] as const) {
      const res = await fetch(`${url}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(status);
      const csp = res.headers.get("content-security-policy") ?? "";
      for (const d of ["script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) expect(csp, path).toContain(d);
      expect(csp, path).not.toContain("unsafe-inline");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
    }
  });

  it("every page shows its content: no uncaught error, no CSP violation, no fallback, no script run", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    const watch = await _watch(context);
    const page = await context.newPage();
    watch.page(page);
    try {
      await page.goto(`${url}/console/`);
      await page.getByLabel("Username").fill("admin@example.org");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      // The real CLI hashes at the shipped scrypt cost: a sign-in can take seconds on a busy machine.
      // One flock: its page opens at once (the chooser shows when #/ is asked for, below).
      await page.getByRole("heading", { name: "Resource types in demo" }).waitFor({ timeout: 60_000 });

      const types = [...new Set(records.map((r) => r.type))];
      const visits: { hash: string; shows: (p: Page) => Promise<void> }[] = [
        { hash: "#/", shows: async (p) => expect(await p.getByRole("link", { name: /^Demo / }).textContent()).toContain(FLOCK_NAME) },
        {
          hash: "#/demo",
          shows: async (p) => {
            for (const t of types) await p.getByRole("link", { name: t, exact: true }).waitFor();
          },
        },
        ...types.map((t) => ({ hash: `#/demo/${t}`, shows: (p: Page) => _listShows(p, t, false) })),
        // With the deleted record included.
        { hash: "#/demo/bookable?include_deleted=true", shows: (p: Page) => _listShows(p, "bookable", true) },
        ...records.map((r) => ({ hash: `#/demo/${r.type}/${r.id}`, shows: (p: Page) => _recordShows(p, r.type, r.id) })),
        {
          hash: "#/demo/_triggers",
          shows: async (p) => expect.poll(() => p.getByRole("table").textContent()).toContain(`${XSS} ${MALFORMED}`),
        },
        {
          hash: "#/demo/_outbox",
          shows: async (p) => {
            await p.getByRole("heading", { level: 1, name: "Outbox of demo" }).waitFor();
            await expect.poll(() => p.getByRole("table").textContent(), { timeout: 15_000 }).toContain("send-json-webhook");
          },
        },
        {
          hash: "#/demo/_tasks",
          shows: async (p) => {
            await p.getByRole("heading", { level: 1, name: "Tasks of demo" }).waitFor();
            await expect.poll(() => p.locator(".tasks").textContent(), { timeout: 15_000 }).toContain(`${XSS} ${MALFORMED}`);
          },
        },
        // Addresses with malformed escapes (a pasted or edited link) show as text too.
        { hash: `#/demo/${MALFORMED}`, shows: async (p) => expect(await p.getByRole("heading", { level: 1 }).textContent()).toContain(MALFORMED) },
        { hash: `#/demo/person/${MALFORMED}`, shows: async (p) => expect(await p.getByRole("heading", { level: 1 }).textContent()).toContain(MALFORMED) },
        { hash: `#/${MALFORMED}`, shows: async (p) => expect(await p.getByRole("heading", { level: 1 }).textContent()).toContain(MALFORMED) },
      ];
      for (const visit of visits) {
        // A fresh document each time: every page renders from scratch, as from a bookmark.
        await page.goto("about:blank");
        await page.goto(`${url}/console/${visit.hash}`);
        try {
          await visit.shows(page);
        } catch (e) {
          throw new Error(`${visit.hash} did not show its content (${String(e).split("\n")[0]}); problems: ${JSON.stringify(await watch.problems(page))}`);
        }
        // Let late answers (data events, the card link) render before judging.
        await watch.settled(page);
        expect(await page.getByText(FALLBACK).count(), visit.hash).toBe(0);
        expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss), visit.hash).toBeUndefined();
        expect(await watch.problems(page), visit.hash).toEqual([]);
      }
      // The watch itself sees a violation: an image from another host, which the policy refuses.
      await page.evaluate(() => {
        const d = (globalThis as unknown as { document: { createElement(t: string): { src: string }; body: { append(e: unknown): void } } }).document;
        const img = d.createElement("img");
        img.src = "https://evil.example/pixel.png";
        d.body.append(img);
      });
      await expect.poll(async () => (await watch.problems(page)).join(" ")).toMatch(/img-src/);
    } finally {
      await context.close();
    }
  }, 480_000);

  it("a page of another origin cannot frame the console: the app never loads in the frame", async () => {
    // The framing page (http://localhost:PORT, another origin than the server's 127.0.0.1)
    // frames the console and, as a control that framing works here, a page of its own.
    const framer: Server = createServer((req, res) => {
      res.setHeader("content-type", "text/html");
      if (req.url === "/own") return res.end("<!doctype html><p id=own>framed fine</p>");
      res.end(`<!doctype html><iframe name=console src="${url}/console/"></iframe><iframe name=own src="/own"></iframe>`);
    });
    await new Promise<void>((r) => framer.listen(0, "127.0.0.1", r));
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    try {
      await page.goto(`http://localhost:${(framer.address() as AddressInfo).port}/`);
      await page.waitForLoadState("networkidle");
      await expect.poll(() => page.frame({ name: "own" })?.locator("#own").textContent()).toBe("framed fine");
      // The browser fetched the console's page for the frame, and refused to show it.
      expect(requested).toContain(`${url}/console/`);
      expect(requested.filter((u) => u.startsWith(`${url}/console/assets/`) || u.startsWith(`${url}/api/`))).toEqual([]);
      const frame = page.frame({ name: "console" });
      const app = await frame?.evaluate(() => !!(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector("#app")).catch(() => false);
      expect(app ?? false).toBe(false);
    } finally {
      await context.close();
      await new Promise((r) => framer.close(r));
    }
  }, 60_000);

  // --- helpers ---

  async function _seed(): Promise<void> {
    const filePath = (type: string) => `/files/v1/demo/${type}/0123456789abcdef01234567/${MALFORMED}`;
    const odd = `\u202Eevil\u202C Z\u0337\u0322a\u0300 \uFEFF a\u0000b \ud800 ${"𝕏".repeat(2_000)}`;
    const huge = "x".repeat(200_000);
    const person = await _create("person", {
      first_name: `${XSS}Ada`,
      last_name: `</td></tr>${XSS}`,
      photo: filePath("person"),
      external_photo_url: `https://evil.example${filePath("person")}`,
      website: "javascript:window.__xss=1",
      notes: huge,
      bio: odd,
      known_as: "%C0%80",
      title: "%",
      job_title: `/demo/person/0123456789abcdef01234567/${MALFORMED}`,
      email: [`${XSS}@example.org`, `/files/v1/demo/person/x/%zz`, MALFORMED],
      tags: [XSS, "%", ""],
      address_lines: ["/files/v1/", `https://evil.example/files/v1/%`, "/files/v1/../../api/v1/demo/person/"],
      geo: { ref: { x: 1 }, display_value: [1, { a: XSS }], lat: "north" },
      date_of_birth: "1815-12-10",
      deceased: true,
    });
    const personUri = `/demo/person/${person}/`;
    // The API refuses an invalid date on a person (its schema is closed); open types store any.
    await _send("POST", "/api/v1/demo/person/", { first_name: "x", date_of_birth: "2026-02-31" }, key, 400);
    const bookable = await _create("bookable", {
      name: { ref: { x: 1 } },
      display_value: [1, 2],
      start_date: "2026-13-45",
      created_at: "not a date",
      end_date: 20261231,
      n: 1e308,
      files: [filePath("bookable"), "https://evil.example/files/v1/%ZZ", "/files/v1/../../api/v1/demo/person/", "/files/v1/%"],
      owner: { ref: 12, display_value: { a: 1 } },
      other: { ref: "/demo/person/zzzz/", display_value: XSS },
      person_ref: `${personUri}${MALFORMED}`,
      real_ref: { ref: personUri, display_value: XSS },
      // A reference-shaped path whose flock part is a lone surrogate (encodeURIComponent throws on it).
      odd_ref: "/\ud800/person/0123456789abcdef01234567/",
      deep: [[[[[[[[[[{ a: [[[[[1]]]]] }]]]]]]]]]],
      nul: "a\u0000b",
      odd,
      nothing: null,
      no: false,
      empty_list: [],
      empty_object: {},
    });
    ids.bookable = bookable;
    await _create("bookable", { name: `${XSS} ${MALFORMED}`, title: 5 });
    const gone = await _create("bookable", { name: `deleted ${XSS}`, file: filePath("bookable") });
    await _send("DELETE", `/api/v1/demo/bookable/${gone}/`, undefined, key);
    await _create("member", { member: personUri, start_date: "2026-02-31", end_date: "nope", membership_number: { a: 1 }, auto_renew: "yes", membership_type: filePath("member") });
    await _create("payment", { amount: "lots", payment_date: "yesterday-ish", membership_ref: filePath("payment"), reservation_ref: [personUri, MALFORMED] });
    await _create("journal", { kind: "email", status: { a: 1 }, body: XSS, to: [1, 2], subject: { a: XSS }, contact_ref: `${personUri}%` });
    await _create("donation", { date: "2026-99-99", person_ref: { ref: personUri }, amount: -0 });

    // A member plants a malformed file path as a reservation's cancellation reason.
    await _create("person", { first_name: "Member", last_name: "Self", email: [MEMBER_EMAIL] });
    const buyer = records.at(-1)!.id;
    await _send("POST", "/api/v1/demo/user/", { email: MEMBER_EMAIL, password: MEMBER_PASSWORD }, key, 201);
    const token = ((await _send("POST", "/api/v1/demo/user/auth/", { email: MEMBER_EMAIL, password: MEMBER_PASSWORD }, undefined, 201)) as { bearer_token: string }).bearer_token;
    const reservation = await _create("reservation", {
      buyer_ref: `/demo/person/${buyer}/`,
      bookable_ref: `/demo/bookable/${bookable}/`,
      start_datetime: "not a time",
      fee: "x",
      number_of_attendees: { a: 1 },
    });
    const reason = filePath("reservation");
    const cancel = await fetch(`${url}/selfservice/v2/demo/reservation/${reservation}?cancellation_reason=${encodeURIComponent(reason)}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}`, application: "Tests/hostile/1" },
    });
    expect(cancel.status).toBe(200);
    const stored = (await _get(`/api/v1/demo/reservation/${reservation}/`)) as { data: Record<string, unknown> };
    expect(stored.data.cancellation_reason).toBe(reason);

    // A task whose description is hostile, and the data events the trigger recorded.
    await _send("POST", "/api/v1/demo/bulk_action/", { action: "add_tag", query: { first_name: "nobody" }, value: "x", description: `${XSS} ${MALFORMED}` }, key, 202);
    for (const type of ["core_event", "data_event"]) {
      // Written by the workers: wait (bounded) until some are there.
      const until = Date.now() + 30_000;
      let list: { results: { id: string }[] };
      while (!(list = (await _get(`/api/v1/demo/${type}/?page_size=2`)) as typeof list).results.length && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(list.results.length, type).toBeGreaterThan(0);
      for (const r of list.results) records.push({ type, id: r.id });
    }
  }

  /** A list page: its count is the API's, one row per record on the page. */
  async function _listShows(p: Page, type: string, deleted: boolean): Promise<void> {
    const api = (await _get(`/api/v1/demo/${type}/${deleted ? "?include_deleted=true" : ""}`)) as { total: number; results: unknown[] };
    await expect.poll(() => p.getByRole("status").filter({ hasText: /records?$/ }).textContent()).toBe(`${api.total} record${api.total === 1 ? "" : "s"}`);
    expect(await p.locator("tbody tr").count()).toBe(api.results.length);
  }

  /** A record page: the editor with one row per field (all shown), each text shown as stored. */
  async function _recordShows(p: Page, type: string, id: string): Promise<void> {
    const { data } = (await _get(`/api/v1/demo/${type}/${id}/`)) as { data: Record<string, unknown> };
    const form = p.getByRole("form", { name: "Fields" });
    await form.waitFor();
    const showAll = form.getByRole("button", { name: /^Show all fields/ });
    if (await showAll.count()) await showAll.click();
    expect(await form.locator(".field").count()).toBe(Object.keys(data).length);
    for (const [field, value] of Object.entries(data)) {
      const el = form.locator(`[id="f-${field}"]`);
      // References show as a picker (the name of the record), lists as chips: checked below by their text.
      if (!(await el.count())) continue;
      const tag = await el.evaluate((e) => (e as unknown as { tagName: string; type?: string }).tagName + ":" + ((e as unknown as { type?: string }).type ?? ""));
      const shown = tag.startsWith("OUTPUT") ? await el.textContent() : tag === "INPUT:checkbox" ? undefined : await el.inputValue();
      if (shown === undefined || tag === "INPUT:date") continue;
      if (typeof value === "string" && !/[\u0000\n\r]/.test(value) && !LONE_SURROGATE.test(value) && !(await form.locator(".field", { has: el }).locator(".chips").count())) {
        expect(shown, field).toBe(value);
      } else if (typeof value === "object" && value !== null && !Array.isArray(value) && !("ref" in value)) {
        expect(JSON.parse(shown!), field).toEqual(value);
      }
    }
    // Downloads are offered for this server's file paths only, never for one that leaves /files/v1/.
    if (id === ids.bookable) {
      const row = form.locator(".field", { has: p.locator('[id="f-files"]') });
      expect(await row.getByRole("button", { name: /^Download / }).allTextContents()).toEqual([`Download ${MALFORMED}`, "Download %ZZ", "Download %"]);
    }
    // A file-path value offers its download, labelled with the last segment as stored.
    for (const v of Object.values(data)) {
      if (typeof v === "string" && v.endsWith(`/${MALFORMED}`) && v.startsWith("/files/v1/")) {
        expect(await form.getByRole("button", { name: `Download ${MALFORMED}` }).count()).toBeGreaterThan(0);
      }
    }
  }

  async function _create(type: string, data: Record<string, unknown>): Promise<string> {
    const id = idOf(await _send("POST", `/api/v1/demo/${type}/`, data, key, 201));
    records.push({ type, id });
    return id;
  }

  async function _get(path: string): Promise<unknown> {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}`, application: "Tests/hostile/1" } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }

  function _send(method: string, path: string, json: unknown, bearer?: string, status?: number): Promise<unknown> {
    return sendJson(url, method, path, json, bearer, status);
  }
});

/**
 * Collects, per page, uncaught errors, CSP violations (the page's own
 * `securitypolicyviolation` events and Chromium's console reports) and crashes; `settled`
 * waits (bounded) until no API request of the page is in flight (the change feed aside).
 */
async function _watch(context: BrowserContext): Promise<{ page(p: Page): void; settled(p: Page): Promise<void>; problems(p: Page): Promise<string[]> }> {
  await context.addInitScript(() => {
    const w = globalThis as unknown as { __csp: string[]; document: { addEventListener(t: string, l: (e: { violatedDirective: string; blockedURI: string }) => void, c: boolean): void } };
    w.__csp = [];
    w.document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(`CSP ${e.violatedDirective} ${e.blockedURI}`), true);
  });
  const seen = new Map<Page, string[]>();
  const inFlight = new Set<unknown>();
  const counted = (u: string) => u.includes("/api/") && !u.includes("/changes/");
  return {
    page(p) {
      const list: string[] = [];
      seen.set(p, list);
      p.on("pageerror", (e) => list.push(`pageerror ${e.name}: ${e.message}`));
      p.on("crash", () => list.push("crash"));
      p.on("console", (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) list.push(`console ${m.text()}`);
      });
      p.on("request", (r) => void (counted(r.url()) && inFlight.add(r)));
      p.on("requestfinished", (r) => void inFlight.delete(r));
      p.on("requestfailed", (r) => void inFlight.delete(r));
    },
    async settled() {
      const until = Date.now() + 10_000;
      while (inFlight.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      // One more turn for the last answer to render.
      await new Promise((r) => setTimeout(r, 50));
    },
    async problems(p) {
      const inPage = await p.evaluate(() => (globalThis as unknown as { __csp?: string[] }).__csp ?? []).catch(() => []);
      const list = seen.get(p) ?? [];
      const all = [...list, ...inPage];
      list.length = 0;
      return all;
    },
  };
}
