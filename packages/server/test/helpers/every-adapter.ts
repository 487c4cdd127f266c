/**
 * @module test/helpers/every-adapter
 * One HTTP suite on every Storage adapter, PostgreSQL included: the in-memory reference,
 * SQLite in memory, and a fresh PostgreSQL database per file (emptied before each test).
 * The PostgreSQL run skips locally without a server and fails in CI (global setup).
 */
import { createMemoryStorage, type Storage } from "@records-service/core";
import { createTestDatabase, type TestDatabase } from "@records-service/postgres/testing";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterAll, afterEach, inject } from "vitest";
import { createTestApp, type TestApp } from "./app.js";

/** What `describe.each(EVERY_ADAPTER)` passes: a name and whether the adapter can run here. */
export type AdapterName = "memory" | "sqlite" | "postgres";

/** `[name]` rows for `describe.each`; use `setupOn(name)` inside. */
export const EVERY_ADAPTER: [AdapterName][] = [["memory"], ["sqlite"], ["postgres"]];

/** False for PostgreSQL when no test server answers (the suite then skips). */
export function adapterAvailable(name: AdapterName): boolean {
  return name !== "postgres" || inject("pgAvailable");
}

/**
 * A `setup()` that builds a test app on a fresh storage of `name`; call it inside a
 * `describe` (it registers the hooks that close and drop what it opened).
 */
export function setupOn(
  name: AdapterName,
  opts: Omit<Parameters<typeof createTestApp>[0], "storage"> = {},
): () => Promise<TestApp> {
  const opened: Storage[] = [];
  let db: TestDatabase | undefined;
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });
  afterAll(async () => {
    await db?.drop();
  });
  const make = async (): Promise<Storage> => {
    if (name === "memory") return createMemoryStorage();
    if (name === "sqlite") return createSqliteStorage({ path: ":memory:" });
    db ??= await createTestDatabase();
    return db.emptyStorage();
  };
  return async () => {
    const storage = await make();
    opened.push(storage);
    return createTestApp({ ...opts, storage });
  };
}
