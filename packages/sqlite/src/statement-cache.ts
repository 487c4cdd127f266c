/**
 * @module statement-cache
 * Prepared statements for compiled (drizzle `sql`) queries, cached by their SQL text. A
 * query's text depends only on its shape (which filters, how many values), never on the
 * values, so a busy list endpoint reuses a handful of statements.
 */
import { renderWith, SQLITE_PLACEHOLDER } from "@records-service/sql";
import type Database from "better-sqlite3";
import type { SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/** A prepared statement with the parameters of one use. */
interface BoundStatement {
  statement: Database.Statement<unknown[]>;
  params: unknown[];
}

/** Prepares `query` (reusing a cached statement of the same text) and returns its parameters. */
export type StatementCache = (query: SQL) => BoundStatement;

/** Default number of distinct statement texts kept. */
const DEFAULT_STATEMENT_CACHE_SIZE = 200;

/** A bounded cache (least recently used text is dropped first). */
export function createStatementCache(client: Database.Database, max = DEFAULT_STATEMENT_CACHE_SIZE): StatementCache {
  const dialect = new SQLiteSyncDialect();
  const render = renderWith(SQLITE_PLACEHOLDER, (q) => dialect.sqlToQuery(q));
  const cache = new Map<string, Database.Statement<unknown[]>>();
  return (query) => {
    const { sql: text, params } = render(query);
    let statement = cache.get(text);
    if (statement) {
      cache.delete(text); // re-insert below: Map order is the recency order
    } else {
      statement = client.prepare<unknown[]>(text);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
    }
    cache.set(text, statement);
    return { statement, params };
  };
}
