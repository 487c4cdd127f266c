/**
 * vitest global setup of the PostgreSQL tests: is the test server (RECORDS_TEST_PG_URL)
 * there? Locally without it the tests skip, announced by one line; with `CI` set they
 * fail instead, so CI never passes without having run them.
 */
import type { TestProject } from "vitest/node";
import { checkTestServer, testServerUrl } from "../src/testing.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL test server answers. */
    pgAvailable: boolean;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const why = await checkTestServer();
  const where = _redacted(testServerUrl());
  if (why !== undefined && process.env.CI) {
    throw new Error(`PostgreSQL tests need a server at ${where} (CI is set, so they may not skip): ${why}`);
  }
  if (why !== undefined) {
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
