/**
 * @module exec
 * Runs drizzle `sql` queries on node-postgres: rendered by drizzle's PostgreSQL dialect
 * (`$1` placeholders), executed on the pool or on a transaction's client. Fixed statements
 * carry a name, so each connection parses and plans them once; the others (compiled list
 * queries, whose text follows the query's shape) are named by their text, up to a bound
 * (statement-names).
 */
import { retryWhileBusy } from "@records-service/core";
import { POSTGRES_PLACEHOLDER, renderWith } from "@records-service/sql";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import { createStatementNames } from "./statement-names.js";

/** The pool (each query on any free connection) or one checked-out client (a transaction). */
export type Conn = pg.Pool | pg.PoolClient;

/** The rows and the number of rows a statement touched. */
export interface Result<T> {
  rows: T[];
  rowCount: number;
}

const _dialect = new PgDialect();
const _render = renderWith(POSTGRES_PLACEHOLDER, (q) => _dialect.sqlToQuery(q));
/** Names of the statements run without one: one per text in this process (statement-names). */
const _names = createStatementNames();

/**
 * Runs `query` as a named prepared statement: with `name` (the text must never change for a
 * name; it is prefixed with `records_` so it cannot meet a caller's own statements on a
 * shared pool), else with the name of its text (statement-names: `records_auto_<n>`).
 *
 * @example
 * const { rows } = await exec<{ n: string }>(pool, sql`SELECT count(*) AS n FROM records`);
 */
export async function exec<T = Record<string, unknown>>(c: Conn, query: SQL, name?: string): Promise<Result<T>> {
  const { sql: text, params } = _render(query);
  const given = name ? `records_${name}` : _names(text);
  const res = await c.query<T & pg.QueryResultRow>(given ? { name: given, text, values: params } : { text, values: params });
  return { rows: res.rows, rowCount: res.rowCount ?? 0 };
}

/** The SQL text and parameters of a query (tests, EXPLAIN). */
export function render(query: SQL): { sql: string; params: unknown[] } {
  return _render(query);
}

/** Options of `transaction`. */
export interface TransactionOptions {
  /**
   * Commit without waiting for the WAL flush (`synchronous_commit = off` for this
   * transaction only): visible to everyone at once, but a server crash may lose the last
   * fraction of a second of such commits. For state that may be lost, never for records.
   */
  asyncCommit?: boolean;
}

/**
 * Runs `fn` in one transaction on one client: COMMIT when it resolves, ROLLBACK when it
 * throws (and rethrows). A client whose connection broke is dropped, not reused. A deadlock
 * or serialization failure (another process's transaction on the same rows) rolls back and
 * runs `fn` again after a short pause, for up to 10 s (`retryWhileBusy`; past it, 503
 * "database busy"): such a failure says nothing about the request, so no client sees it.
 * `fn` must therefore be safe to run again (it gets a fresh transaction each time).
 *
 * @example
 * await transaction(pool, async (c) => { await exec(c, sql`UPDATE ...`); });
 */
export async function transaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
  return retryWhileBusy(() => _once(pool, fn, opts), { isBusy: isLockConflict });
}

/** A deadlock (40P01) or a serialization failure (40001): the transaction is worth running again. */
export function isLockConflict(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

// --- internal ---

async function _once<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>, opts: TransactionOptions): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // One round trip either way (a simple query may hold several statements).
    await client.query(opts.asyncCommit ? "BEGIN; SET LOCAL synchronous_commit = off" : "BEGIN");
    const out = await fn(client);
    await client.query("COMMIT");
    return out;
  } catch (e) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackError) {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw e;
  } finally {
    client.release(broken);
  }
}
