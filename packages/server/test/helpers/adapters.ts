/**
 * Running one HTTP suite on every Storage adapter: the in-memory reference and SQLite in
 * memory, so the app's behaviour is shown not to depend on the adapter.
 */
import { createMemoryStorage, type Storage } from "@records-service/core";
import { createSqliteStorage } from "@records-service/sqlite";
import { afterEach } from "vitest";
import { createTestApp, type TestApp } from "./app.js";

/** `[name, make]` pairs for `describe.each`. */
export const STORAGE_ADAPTERS: [string, () => Storage][] = [
  ["memory", () => createMemoryStorage()],
  ["sqlite", () => createSqliteStorage({ path: ":memory:" })],
];

/**
 * A `setup()` that builds a test app on a fresh storage from `make`; call it inside a
 * `describe` (it registers the `afterEach` that closes what it opened).
 */
export function appSetupOn(make: () => Storage): () => Promise<TestApp> {
  const opened: Storage[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });
  return async () => {
    const storage = make();
    opened.push(storage);
    return createTestApp({ storage });
  };
}
