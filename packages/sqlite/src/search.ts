/**
 * @module search
 * The search index of one connection: `record_search`, an FTS5 table whose rowid is the
 * record's `rid`. `indexer` keeps it inside `apply`'s transaction; `search` answers
 * `Storage.searchRecords` from it; `backfillSearch` adds the rows
 * of records written before the index existed.
 */
import { SEARCH_TYPES, searchDocument, type StoredRecord } from "@records-service/core";
import type Database from "better-sqlite3";
import type { Catalog } from "./catalog.js";
import { toStoredRecord, type RecordRow } from "./read.js";

/** What `apply` calls for each record it wrote (rid known). */
export interface SearchIndexer {
  /** Replaces the record's index row (or removes it: deleted, or not a searched type). */
  put(rid: number, record: StoredRecord, inserted: boolean): void;
}

/** The indexer of one connection. */
export function createSearchIndexer(client: Database.Database): SearchIndexer {
  const del = client.prepare("DELETE FROM record_search WHERE rowid = ?");
  const ins = client.prepare("INSERT INTO record_search (rowid, body) VALUES (?, ?)");
  return {
    put(rid, record, inserted) {
      if (!SEARCH_TYPES.includes(record.type)) return;
      if (!inserted) del.run(rid);
      const doc = searchDocument(record);
      if (doc !== undefined) ins.run(rid, doc);
    },
  };
}

/**
 * The search statement (match text, the collections as a JSON array, limit): matches in
 * rowid (insertion) order, each record read by its key and kept when it is in one of the
 * collections; it stops at the limit, so a broad prefix costs no more than a narrow one.
 * The plan test explains it.
 */
export const SEARCH_STATEMENT = `SELECT r.id, r.state, r.data, r.display_value AS displayValue, r.created, r.last_updated AS lastUpdated, r.version, c.type
     FROM record_search s CROSS JOIN records r ON r.rid = s.rowid JOIN collections c ON c.cid = r.cid
     WHERE record_search MATCH ? AND r.cid IN (SELECT value FROM json_each(?)) ORDER BY s.rowid LIMIT ?`;

/**
 * `Storage.searchRecords`: the live records of `types` in `flock` whose document has every
 * term as a word prefix, best first (bm25), at most `limit`.
 */
export function createSearcher(client: Database.Database, catalog: Catalog) {
  const stmt = client.prepare<[string, string, number], RecordRow & { type: string }>(SEARCH_STATEMENT);
  return (flock: string, types: readonly string[], terms: readonly string[], limit: number, prefix: boolean): StoredRecord[] => {
    const cids = types.map((t) => catalog.collectionId(flock, t)).filter((c): c is number => c !== undefined);
    if (cids.length === 0 || terms.length === 0 || limit <= 0) return [];
    return stmt.all(searchMatch(terms, prefix), JSON.stringify(cids), limit).map((row) => toStoredRecord(row, flock, row.type));
  };
}

/**
 * The FTS5 query: every term, quoted (terms are folded words of letters and digits; quoting
 * keeps FTS5 operators out regardless), as a whole word or with `prefix` a word start.
 *
 * @example
 * searchMatch(["ada", "love"], true) // '"ada"* AND "love"*'
 */
export function searchMatch(terms: readonly string[], prefix: boolean): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"${prefix ? "*" : ""}`).join(" AND ");
}

/** Records indexed per step of `backfillSearch`. */
const BACKFILL_STEP = 2000;

/**
 * Adds the index rows of searched records that have none (a database written before the
 * index existed), a step at a time; returns how many were added. Idempotent, and safe when
 * two processes run it at once (each step is one transaction that re-checks what is missing).
 */
export function backfillSearch(client: Database.Database): number {
  const missing = client.prepare<[number], RecordRow & { rid: number; cid: number; flock: string; type: string }>(
    `SELECT r.rid, r.cid, c.flock, c.type, r.id, r.state, r.data, r.display_value AS displayValue, r.created, r.last_updated AS lastUpdated, r.version
     FROM records r JOIN collections c ON c.cid = r.cid
     WHERE c.type IN (${_SEARCH_TYPE_LIST}) AND r.state <> 'deleted'
       AND NOT EXISTS (SELECT 1 FROM record_search s WHERE s.rowid = r.rid)
     LIMIT ?`,
  );
  const ins = client.prepare("INSERT INTO record_search (rowid, body) VALUES (?, ?)");
  let added = 0;
  const step = client.transaction(() => {
    const rows = missing.all(BACKFILL_STEP);
    for (const row of rows) {
      const doc = searchDocument(toStoredRecord(row, row.flock, row.type));
      if (doc !== undefined) ins.run(row.rid, doc);
    }
    return rows.length;
  });
  for (let n = step(); n > 0; n = step()) added += n;
  return added;
}

// --- internal ---

/** The searched type names as SQL literals (type names are `[a-z][a-z0-9_]*`: nothing to escape). */
const _SEARCH_TYPE_LIST = SEARCH_TYPES.map((t) => `'${t}'`).join(", ");
