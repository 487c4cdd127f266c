/**
 * Concurrent PUTs of different fields of one record, through the real CLI server on SQLite
 * and on PostgreSQL: no caller names a version, so none may get a 409 for the server's own
 * race between its read and its commit. Every PUT is answered 200 and every field is kept
 * (a write that lost the version check is planned again on the record as it now is).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { WRITE_REPLANS } from "@records-service/core";
import { afterAll, describe, expect, inject, it } from "vitest";
import { killAll, runCliToEnd, startCli } from "./spawn-cli.js";

const PASSWORD = "concurrent puts password";
/**
 * PUTs in flight at once on one record, each to its own field: no more than one first try
 * and WRITE_REPLANS replans can need (a write loses a race only to another's commit), so
 * every one must get through. RECORDS such records are written at once.
 */
const WRITERS = WRITE_REPLANS + 1;
const RECORDS = 4;

afterAll(() => killAll());

describe("concurrent PUTs of different fields (SQLite)", () => {
  const dir = mkdtempSync(join(tmpdir(), "concurrent-puts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("are all answered 200 and keep every field", async () => {
    await _check(join(dir, "records.db"));
  }, 90_000);
});

describe.skipIf(!inject("pgAvailable"))("concurrent PUTs of different fields (PostgreSQL)", () => {
  let db: TestDatabase | undefined;
  afterAll(async () => {
    await db?.drop();
  });
  it("are all answered 200 and keep every field", async () => {
    db = await createTestDatabase();
    await _check(db.url);
  }, 90_000);
});

// --- internal ---

async function _check(dbArg: string): Promise<void> {
  expect((await runCliToEnd(["flock", "add", "club", "--db", dbArg])).code).toBe(0);
  expect((await runCliToEnd(["user", "add", "ada", "--password", PASSWORD, "--flock", "club", "--db", dbArg])).code).toBe(0);
  const server = startCli(["serve", "--port", "0", "--db", dbArg]);
  const base = /listening on (http:\/\/\S+)/.exec(await server.line(/listening on http:\/\//, 30_000))![1]!;
  const login = await fetch(`${base}/api/v1/auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "ada", password: PASSWORD }),
  });
  const key = ((await login.json()) as { api_key: string }).api_key;
  const headers = { authorization: `Bearer ${key}`, application: "e2e/concurrent-puts/1", "content-type": "application/json" };
  const uris: string[] = [];
  for (let n = 0; n < RECORDS; n++) {
    const created = await fetch(`${base}/api/v1/club/journal/`, { method: "POST", headers, body: JSON.stringify({ title: `record ${n}` }) });
    expect(created.status).toBe(201);
    uris.push(((await created.json()) as { uri: string }).uri);
  }
  const put = async (uri: string, i: number) => {
    const res = await fetch(`${base}/api/v1${uri}`, { method: "PUT", headers, body: JSON.stringify({ [`f${i}`]: `value ${i}` }) });
    return `${res.status} ${res.status === 200 ? "" : await res.text()}`.trim();
  };
  const answers = await Promise.all(uris.flatMap((uri) => Array.from({ length: WRITERS }, (_, i) => put(uri, i))));
  expect(answers.filter((a) => a !== "200")).toEqual([]);
  for (const [n, uri] of uris.entries()) {
    const stored = (await (await fetch(`${base}/api/v1${uri}`, { headers })).json()) as { data: Record<string, unknown> };
    expect(stored.data).toEqual({ title: `record ${n}`, ...Object.fromEntries(Array.from({ length: WRITERS }, (_, i) => [`f${i}`, `value ${i}`])) });
  }
  server.child.kill("SIGTERM");
  expect(await server.exited(15_000)).toBe(0);
}
