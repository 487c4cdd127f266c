/**
 * @module migrate
 * Applies drizzle's SQL migrations (`../drizzle/`, resolved from this module so it works
 * from `src/` under vitest and from `dist/` once built) inside a session-level PostgreSQL
 * advisory lock: several processes starting at once against a new database take turns,
 * the first migrates, the others find nothing left to do.
 */
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";
import { checkFolding } from "./entries-rule.js";
import { fillFieldIndexes } from "./field-indexes.js";
import { backfillTicketStock } from "./ticket-stock.js";

/** Where the generated SQL migrations live: `packages/postgres/drizzle/`. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../drizzle/", import.meta.url));

/** The advisory lock key of migrations (any fixed bigint; "records" in ASCII). */
const MIGRATION_LOCK_KEY = 0x7265636f726473n;

/**
 * Migrates the database to the newest schema, holding the migration lock meanwhile.
 *
 * @example
 * await migrateDatabase(pool);
 */
export async function migrateDatabase(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    try {
      // Quiet "already exists, skipping" notices of the migration table's IF NOT EXISTS.
      await client.query("SET client_min_messages = warning");
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      // A migration that made a read model asks for it to be filled from the stored records.
      await backfillTicketStock(client);
      // The registry's rows for fields an older version indexed that the defaults do not want.
      await fillFieldIndexes(client);
      // records_entries stays exact where this server's ICU and this Node fold differently.
      await checkFolding(client);
    } finally {
      await client.query("RESET client_min_messages");
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
    }
  } catch (e) {
    broken = e instanceof Error ? e : new Error(String(e));
    throw e;
  } finally {
    // A client that failed mid-way may still hold the lock or a transaction: drop it.
    client.release(broken);
  }
}
