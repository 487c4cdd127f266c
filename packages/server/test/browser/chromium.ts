/**
 * @module test/browser/chromium
 * Debian's Chromium for the browser checks: where it is, whether these tests must run
 * (always in CI), and the flags that keep it headless and off the network.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const IN_CI = !!process.env.CI && process.env.CI !== "false";
export const CHROMIUM_PRESENT = existsSync(CHROMIUM);

/** Launches headless Chromium; throws (so CI fails) when it is missing. */
export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM_PRESENT) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package (see .ci/run)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
