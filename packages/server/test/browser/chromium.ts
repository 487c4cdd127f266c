/**
 * @module test/browser/chromium
 * What every browser suite shares: Debian's Chromium through playwright-core (skipped
 * locally when it is missing, required in CI, where `.ci/run` installs it), the server
 * under test on memory at port 0, and JSON calls to it.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { parseConfig } from "../../src/config.js";
import { startServer, type RunningServer } from "../../src/runtime.js";

const CHROMIUM = "/usr/bin/chromium";
const IN_CI = !!process.env.CI && process.env.CI !== "false";
const PRESENT = existsSync(CHROMIUM);
/** True when the browser suites run: Chromium is there, or CI requires it. */
export const BROWSER_TESTS = PRESENT || IN_CI;

if (!PRESENT && !IN_CI) {
  console.warn(`browser checks skipped: ${CHROMIUM} is missing (apt-get install -y chromium); they run, and must pass, in CI`);
}

/** Starts headless Chromium; in CI without it, fails naming what is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!PRESENT) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package (see .ci/run)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** Starts a server on ":memory:" at port 0 with `config` (cheap password hashing, so signing in is fast). */
export function startTestServer(config: unknown): Promise<RunningServer> {
  return startServer({ db: ":memory:", host: "127.0.0.1", port: 0, passwordCost: { N: 1024, r: 8, p: 1 }, config: parseConfig(config) });
}

/** Signs `username` in at `base` and returns the API key. */
export async function signIn(base: string, username: string, password: string): Promise<string> {
  return ((await sendJson(base, "POST", "/api/v1/auth/", { username, password })) as { api_key: string }).api_key;
}

/** Sends JSON to `base + path` and returns the JSON answer; another status than `status` throws. */
export async function sendJson(base: string, method: string, path: string, json: unknown, bearer?: string, status?: number): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", application: "Tests/browser/1", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(json),
  });
  if (status === undefined ? !res.ok : res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The id of a record from its envelope's `uri`. */
export function idOf(envelope: unknown): string {
  return (envelope as { uri: string }).uri.split("/")[3]!;
}
