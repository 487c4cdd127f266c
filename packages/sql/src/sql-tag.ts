/**
 * @module sql-tag
 * drizzle's `sql` tagged template for the compiler's statements, built without drizzle's
 * per-chunk check: drizzle's `SQL` constructor asks every chunk whether it is a table (a
 * prototype walk each, to note the tables a query uses, which only drizzle's query cache
 * reads) and a new text chunk is made for every literal part on every call. A list request
 * builds a few dozen such fragments; here the literal parts' chunks are made once per
 * template (a template's strings array is the same object on every call) and the chunks
 * are placed in an empty `SQL` directly. The fragments render to the same text and
 * parameters (`sql-tag.test.ts`); `sql.join`, `sql.raw` and the rest are drizzle's own.
 */
import { SQL, sql as drizzleSql, StringChunk, type SQLChunk } from "drizzle-orm";

/**
 * `sql` as drizzle's: `` sql`a = ${1}` `` is an `SQL` of the text chunks and parameters.
 * Not for fragments holding drizzle tables (their names would be missing from `usedTables`).
 *
 * @example
 * const where = sql`r.cid = ${cid} AND r.state = ${"updated"}`;
 */
export const sql: typeof drizzleSql = Object.assign(tag, drizzleSql);

// --- internal ---

/** The text chunks of each template's literal parts, made on its first use. */
const _parts = new WeakMap<TemplateStringsArray, StringChunk[]>();

function tag(strings: TemplateStringsArray, ...params: unknown[]): SQL {
  let parts = _parts.get(strings);
  if (!parts) _parts.set(strings, (parts = strings.map((s) => new StringChunk(s))));
  const out = new SQL([]);
  const chunks = out.queryChunks;
  // As drizzle's tag: no leading chunk for a template that is one empty text.
  if (params.length > 0 || strings[0] !== "") chunks.push(parts[0]!);
  for (let i = 0; i < params.length; i++) chunks.push(params[i] as SQLChunk, parts[i + 1]!);
  return out;
}
