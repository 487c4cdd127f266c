/**
 * @module search
 * The search index on PostgreSQL: `record_search` (rid, doc tsvector) with a GIN index.
 * `searchDoc` builds a row's vector text, `searchQuery` a query's; `applyChanges` keeps the
 * rows in its transaction; `createSearcher` answers `Storage.searchRecords`;
 * `backfillSearch` adds the rows of records written before the index existed.
 */
import { SEARCH_TYPES, searchDocument, type StoredRecord } from "@records-service/core";
import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import type { Catalog } from "./catalog.js";
import { exec } from "./exec.js";
import { RECORD_COLUMNS, toStoredRecord, type RecordRow } from "./read.js";

/**
 * The tsvector text of a record (its folded words, quoted), or undefined when it is not indexed.
 *
 * @example
 * searchDoc(ada) // "'ada' 'lovelace'"
 */
export function searchDoc(record: StoredRecord): string | undefined {
  if (!SEARCH_TYPES.includes(record.type)) return undefined;
  const doc = searchDocument(record);
  if (doc === undefined) return undefined;
  return (doc ? doc.split(" ") : []).map(_quote).join(" ");
}

/**
 * The tsquery text: every term, as a whole word or with `prefix` a word start.
 *
 * @example
 * searchQuery(["ada", "love"], true) // "'ada':* & 'love':*"
 */
export function searchQuery(terms: readonly string[], prefix: boolean): string {
  return terms.map((t) => `${_quote(t)}${prefix ? ":*" : ""}`).join(" & ");
}

/** `Storage.searchRecords` over the pool. */
export function createSearcher(pool: pg.Pool, catalog: Catalog) {
  return async (flock: string, types: readonly string[], terms: readonly string[], limit: number, prefix: boolean): Promise<StoredRecord[]> => {
    const cids: number[] = [];
    for (const t of types) {
      const cid = await catalog.collectionId(pool, flock, t);
      if (cid !== undefined) cids.push(cid);
    }
    if (cids.length === 0 || terms.length === 0 || limit <= 0) return [];
    const { rows } = await exec<RecordRow & { type: string }>(pool, searchStatement(cids, terms, limit, prefix), "search_records");
    return rows.map((row) => toStoredRecord(row, flock, row.type));
  };
}

/** The search statement: matches from the GIN index in the collections, in insertion order (the plan test explains it). */
export function searchStatement(cids: readonly number[], terms: readonly string[], limit: number, prefix: boolean): SQL {
  return sql`SELECT c.type, ${RECORD_COLUMNS}
      FROM record_search s JOIN records r ON r.rid = s.rid JOIN collections c ON c.cid = r.cid
      WHERE s.doc @@ ${searchQuery(terms, prefix)}::tsquery AND r.cid = ANY(${sql.param([...cids])}::int[])
      ORDER BY s.rid LIMIT ${Math.floor(limit)}`;
}

/** Records indexed per step of `backfillSearch`. */
const BACKFILL_STEP = 2000;

/**
 * Adds the index rows of searched records that have none, a step (one transaction) at a
 * time; returns how many. Safe when several processes run it at once (ON CONFLICT).
 */
export async function backfillSearch(pool: pg.Pool): Promise<number> {
  let added = 0;
  for (;;) {
    const { rows } = await exec<RecordRow & { rid: string; cid: number; flock: string; type: string }>(
      pool,
      sql`SELECT r.rid, r.cid, c.flock, c.type, ${RECORD_COLUMNS}
          FROM records r JOIN collections c ON c.cid = r.cid
          WHERE c.type = ANY(${sql.param([...SEARCH_TYPES])}::text[]) AND r.state <> 'deleted'
            AND NOT EXISTS (SELECT 1 FROM record_search s WHERE s.rid = r.rid)
          ORDER BY r.rid LIMIT ${BACKFILL_STEP}`,
      "search_backfill_missing",
    );
    if (rows.length === 0) return added;
    const rids: string[] = [];
    const docs: string[] = [];
    for (const row of rows) {
      const doc = searchDoc(toStoredRecord(row, row.flock, row.type));
      if (doc === undefined) continue;
      rids.push(row.rid);
      docs.push(doc);
    }
    await exec(
      pool,
      sql`INSERT INTO record_search (rid, doc) SELECT u.rid, u.doc::tsvector FROM unnest(${sql.param(rids)}::bigint[], ${sql.param(docs)}::text[]) AS u(rid, doc)
          ON CONFLICT (rid) DO NOTHING`,
      "search_backfill_insert",
    );
    added += rids.length;
  }
}

// --- internal ---

/** A lexeme quoted for tsvector/tsquery text (words hold only letters, digits and `#`). */
function _quote(word: string): string {
  return `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}
