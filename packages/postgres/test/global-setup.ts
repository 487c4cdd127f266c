/**
 * vitest global setup of the PostgreSQL tests (of every project that has them): is the
 * test server (RECORDS_TEST_PG_URL) there? Locally without it the tests skip, announced by
 * one line; with `CI` set they fail instead, so CI never passes without having run them.
 * Checked once per run, however many projects use this setup.
 */
import type { TestProject } from "vitest/node";
import { checkTestServer, testServerUrl } from "../src/testing.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL test server answers. */
    pgAvailable: boolean;
  }
}

let checked: Promise<string | undefined> | undefined;

/** @public vitest's globalSetup (vitest.workspace.ts) calls it; knip cannot see that reference. */
export default async function setup(project: TestProject): Promise<void> {
  const first = checked === undefined;
  checked ??= checkTestServer();
  const why = await checked;
  const where = _redacted(testServerUrl());
  if (why !== undefined && process.env.CI) {
    throw new Error(`PostgreSQL tests need a server at ${where} (CI is set, so they may not skip): ${why}`);
  }
  if (why !== undefined && first) {
    console.warn(`PostgreSQL tests skipped: no server at ${where} (${why}); set RECORDS_TEST_PG_URL to run them.`);
  }
  project.provide("pgAvailable", why === undefined);
}

function _redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}
