/**
 * Moving off SQLite end to end: `records-service copy` (the real CLI) of a seeded
 * 10,000-person file into PostgreSQL is killed half way, refused again without `--resume`,
 * finished with it; then every record read through a server on PostgreSQL equals the same
 * read through a server on the SQLite file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIdSource, derive, formatTimestamp, validateInput, type StoredRecord } from "@records-service/core";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashToken } from "../../src/auth/tokens.js";
import { startServer, type RunningServer } from "../../src/runtime.js";
import { killAll, runCliToEnd, startCli } from "../e2e/spawn-cli.js";

const PERSONS = 10_000;
const KEY = "9".repeat(64);
const FIRST = ["Ada", "Émile", "Zoë", "Ólafur", "Ингрид", "美咲", "Chloé", "Omar"];
const LAST = ["Lovelace", "Ångström", "Nakamura", "O'Brien", "Straße", "Øre", "Σίσυφος", "Smith"];

describe.skipIf(!inject("pgAvailable"))("records-service copy", () => {
  const dir = mkdtempSync(join(tmpdir(), "records-copy-e2e-"));
  const file = join(dir, "records.db");
  let db: TestDatabase;
  const ids: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const s = createSqliteStorage({ path: file });
    const created = "2026-01-01T00:00:00.000000";
    await s.createFlock({ identifier: "demo", name: "Demo", created });
    await s.putUser({ username: "admin", passwordHash: "!disabled", flocks: ["*"], role: "core", created });
    await s.putApiKey({ tokenHash: hashToken(KEY), username: "admin", created, expires: null });
    await s.initSetting("secret", "copy-test-secret-0123456789");
    let at = new Date(Date.UTC(2025, 0, 1));
    const nextId = createIdSource({ now: () => at });
    for (let b = 0; b < PERSONS / 1000; b++) {
      const batch: StoredRecord[] = [];
      for (let i = 0; i < 1000; i++) {
        const n = b * 1000 + i;
        at = new Date(at.getTime() + 60_000);
        const input = { first_name: FIRST[n % 8], last_name: `${LAST[(n * 3) % 8]} ${n}`, email: [`p${n}@example.org`], tags: n % 3 ? ["vip"] : null };
        const { data, displayValue } = derive("person", validateInput("person", input));
        const now = formatTimestamp(at);
        const state = n % 17 === 0 ? "deleted" : "updated";
        batch.push({ id: nextId(), flock: "demo", type: "person", state, data, displayValue, created: now, lastUpdated: now, version: 1 + (n % 3) });
      }
      ids.push(...batch.map((r) => r.id));
      await s.apply({ records: batch.map((record) => ({ kind: "insert" as const, record })) });
    }
    await s.close();
  }, 120_000);
  afterAll(async () => {
    killAll();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("killed half way, refused without --resume, finished with it: the same reads as the file", async () => {
    const first = startCli(["copy", "--from", file, "--to", db.url, "--batch", "250"]);
    await _until(() => first.stderr.some((l) => /^records +\[#{6,}/.test(l)), 60_000); // at least 30%
    first.child.kill("SIGKILL");
    await first.exited();
    const partial = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM records");
    expect(partial.rows[0]!.n).toBeGreaterThan(0);
    expect(partial.rows[0]!.n).toBeLessThan(PERSONS);

    const refused = await runCliToEnd(["copy", "--from", file, "--to", db.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toEqual([expect.stringMatching(/is not empty \(1 flocks\); add --resume/)]);

    const resumed = await runCliToEnd(["copy", "--from", file, "--to", db.url, "--resume"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.at(-1)).toBe("every count matches");
    expect(resumed.stdout[0]).toMatch(new RegExp(`already there: ${partial.rows[0]!.n} records`));
    expect(resumed.stderr.at(-1)).toMatch(/^records +\[#{20}\] 100% 10000\/10000$/);

    const servers: RunningServer[] = [];
    try {
      for (const target of [file, db.url]) servers.push(await startServer({ db: target, host: "127.0.0.1", port: 0, workers: [] }));
      const get = async (server: RunningServer, path: string) => {
        const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}`, application: "tests/copy/1" } });
        return `${res.status} ${await res.text()}`;
      };
      const paths = [
        ...ids.map((id) => `/api/v1/demo/person/${id}/`),
        "/api/v1/demo/",
        "/api/v1/demo/person/?page=7&page_size=50",
        "/api/v1/demo/person/?include_deleted=Y&page=40",
        "/api/v1/demo/person/?last_name__startswith=%C3%85ngstr%C3%B6m%201&page_size=100",
        "/api/v2/demo/person/?tags=vip&page=3",
      ];
      let next = 0;
      const differ: string[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < paths.length) {
            const path = paths[next++]!;
            const [a, b] = await Promise.all(servers.map((s) => get(s, path)));
            if (a !== b || !a!.startsWith("200 ")) differ.push(`${path}: ${a!.slice(0, 120)} | ${b!.slice(0, 120)}`);
          }
        }),
      );
      expect(differ).toEqual([]);
    } finally {
      for (const s of servers) await s.close();
    }
  }, 240_000);
});

async function _until(ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
