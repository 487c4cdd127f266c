/**
 * @module render
 * A drizzle `sql` query as SQL text and parameters, rendered by one short walk for the
 * chunks the compiler and the adapters build (text, nested `sql`, plain values), and by
 * drizzle's dialect for anything else. drizzle's own rendering asks each chunk in turn
 * whether it is one of a dozen kinds of entity (a prototype walk each) and merges a
 * partial result per chunk: about 10 µs for a list page's statement, on every request.
 */
import { SQL, StringChunk } from "drizzle-orm";

/** SQL text with its parameters, in placeholder order. */
export interface RenderedSql {
  sql: string;
  params: unknown[];
}

/**
 * Renders `query` with `placeholder(n)` for its n-th parameter (1-based), or undefined
 * when it holds a chunk this walk leaves to drizzle (a column, a table, a `sql.param`, a
 * placeholder, an identifier, inlined parameters...); `renderWith` falls back then.
 *
 * @example
 * renderSql(sql`SELECT * FROM records r WHERE r.cid = ${1}`, () => "?") // { sql: "SELECT * FROM records r WHERE r.cid = ?", params: [1] }
 */
export function renderSql(query: SQL, placeholder: (n: number) => string): RenderedSql | undefined {
  const out: RenderedSql = { sql: "", params: [] };
  return _walk(query, out, placeholder) ? out : undefined;
}

/**
 * A renderer for one dialect: `renderSql`, else `fallback` (the dialect's `sqlToQuery`),
 * which gives the same text and parameters for every query `renderSql` renders.
 *
 * @example
 * const render = renderWith(() => "?", (q) => new SQLiteSyncDialect().sqlToQuery(q));
 */
export function renderWith(placeholder: (n: number) => string, fallback: (query: SQL) => RenderedSql): (query: SQL) => RenderedSql {
  return (query) => renderSql(query, placeholder) ?? fallback(query);
}

/** SQLite's placeholder. */
export const SQLITE_PLACEHOLDER = (): string => "?";
/** PostgreSQL's placeholders, `$1`, `$2`, ... */
export const POSTGRES_PLACEHOLDER = (n: number): string => `$${n}`;

// --- internal ---

/** Appends `query` to `out`; false at the first chunk drizzle must render. */
function _walk(query: SQL, out: RenderedSql, placeholder: (n: number) => string): boolean {
  // Set by `.inlineParams()` (private in drizzle's types): drizzle writes such values into the text.
  if ((query as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of query.queryChunks as unknown[]) {
    if (chunk instanceof StringChunk) {
      const v = chunk.value;
      out.sql += v.length === 1 ? v[0]! : v.join("");
    } else if (chunk instanceof SQL) {
      if (!_walk(chunk, out, placeholder)) return false;
    } else if (chunk === undefined) {
      continue;
    } else if (_isPlainParam(chunk)) {
      out.params.push(chunk);
      out.sql += placeholder(out.params.length);
    } else {
      return false;
    }
  }
  return true;
}

/** A value drizzle binds as it is (no entity, no list, no `getSQL`). */
function _isPlainParam(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "number":
    case "bigint":
    case "boolean":
      return true;
    case "object":
      return v === null || v instanceof Uint8Array;
    default:
      return false;
  }
}
