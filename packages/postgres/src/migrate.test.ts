/**
 * Opening migrates under an advisory lock: several processes (here: pools) opening a new
 * database at once apply each migration exactly once and all work; reopening applies none.
 * And what opening answers when the server cannot be reached.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Storage } from "@records-service/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "./driver.js";
import { MIGRATIONS_FOLDER } from "./migrate.js";
import { createTestDatabase, type TestDatabase } from "./testing.js";

const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };

describe.skipIf(!inject("pgAvailable"))("migrations", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(); // not migrated yet
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("eight storages opening a new database at once migrate it once, and all of them work", async () => {
    const storages: Storage[] = await Promise.all(Array.from({ length: 8 }, () => createPostgresStorage({ url: db.url }, { poolSize: 2 })));
    try {
      const applied = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
      expect(applied.rows[0]!.n).toBe(journal.entries.length);
      await storages[0]!.createFlock({ identifier: "demo", name: "Demo", created: "2026-01-01T00:00:00.000000" });
      for (const s of storages) expect((await s.getFlock("demo"))?.name).toBe("Demo");
    } finally {
      await Promise.all(storages.map((s) => s.close()));
    }
    const again = await createPostgresStorage({ url: db.url });
    await again.close();
    const after = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
    expect(after.rows[0]!.n).toBe(journal.entries.length);
  });

  it("a caller's pool stays open after close(); the storage's own pool is ended", async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const borrowed = await createPostgresStorage({ pool });
    await borrowed.close();
    expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows[0]!.one).toBe(1);
    await pool.end();
  });
});

describe("an unreachable server", () => {
  it("rejects opening with RecordsError unavailable, naming host, port and the driver's reason", async () => {
    const open = createPostgresStorage({ url: "postgres://nobody:secret@127.0.0.1:9/records" }, { connectTimeoutMs: 2000 });
    await expect(open).rejects.toMatchObject({
      code: "unavailable",
      message: "database unavailable",
      where: "127.0.0.1:9/records",
      reason: expect.stringContaining("ECONNREFUSED"),
    });
  });
});
