/**
 * @module @records-service/postgres/testing
 * Test databases on a real PostgreSQL server: a fresh database with a random name per
 * test file (made through the server's `postgres` database, dropped after), and an empty
 * Storage per test on it. The server comes from `RECORDS_TEST_PG_URL` (default
 * `postgres://postgres@127.0.0.1:5432/`). `checkTestServer` tells whether it answers; the
 * vitest global setup (test/global-setup.ts) turns a missing server into one skip line
 * locally and a failure in CI.
 *
 * @example
 * const db = await createTestDatabase();
 * const storage = await createPostgresStorage({ url: db.url });
 * // ... afterAll: await storage.close(); await db.drop();
 */
import { randomBytes } from "node:crypto";
import type { Storage } from "@records-service/core";
import pg from "pg";
import { createPostgresStorage, type PostgresStorageOptions } from "./driver.js";

/** The environment variable naming the test server. */
const TEST_SERVER_ENV = "RECORDS_TEST_PG_URL";

/** A database made for one test file. */
export interface TestDatabase {
  name: string;
  /** Its URL (the server's URL with the database name). */
  url: string;
  /** A pool on it (ended by `drop`). */
  pool: pg.Pool;
  /** Whether it was made with a linguistic (ICU en-US) default collation. */
  linguistic: boolean;
  /** Empties every table the storage uses (keeps the schema). */
  reset(): Promise<void>;
  /** An empty Storage over `pool` (the database is emptied first). */
  emptyStorage(opts?: PostgresStorageOptions): Promise<Storage>;
  /** Ends the pool and drops the database. */
  drop(): Promise<void>;
}

/** The test server's URL, from `RECORDS_TEST_PG_URL` or the default. */
export function testServerUrl(): string {
  return process.env[TEST_SERVER_ENV] || "postgres://postgres@127.0.0.1:5432/";
}

/** The URL of database `name` on the test server. */
function testDatabaseUrl(name: string): string {
  const u = new URL(testServerUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Undefined when the test server answers; else why not (one line).
 *
 * @example
 * const why = await checkTestServer(); // "connect ECONNREFUSED 127.0.0.1:5432"
 */
export async function checkTestServer(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: _adminUrl(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Creates a fresh database with a random name, with an ICU en-US default collation when
 * the server has ICU (so tests prove the adapter does not depend on the default).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `records_test_${randomBytes(6).toString("hex")}`;
  const linguistic = await _admin(async (c) => {
    try {
      await c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`);
      return true;
    } catch {
      await c.query(`CREATE DATABASE ${name}`);
      return false;
    }
  });
  const url = testDatabaseUrl(name);
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  pool.on("error", () => {});
  let migrated = false;
  const reset = async () => {
    if (!migrated) return;
    await pool.query(_RESET_SQL);
  };
  return {
    name,
    url,
    pool,
    linguistic,
    reset,
    async emptyStorage(opts = {}) {
      await reset();
      const storage = await createPostgresStorage({ pool }, { migrate: !migrated, ...opts });
      migrated = true;
      return storage;
    },
    async drop() {
      await pool.end().catch(() => {});
      await _admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

// --- internal ---

const _TABLES = [
  "record_search",
  "record_values",
  "record_refs",
  "field_indexes",
  "collection_counts",
  "ticket_stock",
  "records",
  "fields",
  "collections",
  "files",
  "outbox",
  "api_keys",
  "limits",
  "users",
  "settings",
  "flocks",
  "changes",
  "change_heads",
];

/** DELETE rather than TRUNCATE: far faster on the few rows a test writes. */
const _RESET_SQL = _TABLES.map((t) => `DELETE FROM ${t};`).join(" ");

/** The server's maintenance database: the URL's own database, else `postgres`. */
function _adminUrl(): string {
  const u = new URL(testServerUrl());
  if (u.pathname === "" || u.pathname === "/") u.pathname = "/postgres";
  return u.toString();
}

async function _admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: _adminUrl(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}
