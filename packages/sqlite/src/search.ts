/**
 * @module search
 * The search index of one connection: `record_search`, an FTS5 table whose rowid is the
 * record's `rid`. A small write queues its records' rids in `search_pending` (one page)
 * instead of writing an FTS5 segment in its transaction (10-37 pages); `createSearchMerger`
 * moves queued records into the index in batches (the search worker every
 * `SEARCH_MERGE_INTERVAL_MS`, and every search before it answers, so a search sees every
 * acknowledged write); a large change set (an import's) indexes its records itself, its
 * segment being cheap per record. `search` answers `Storage.searchRecords`;
 * `backfillSearch` adds the rows of records written before the index existed.
 */
import { SEARCH_MERGE_BATCH, SEARCH_TYPES, searchDocument, type StoredRecord } from "@records-service/core";
import type Database from "better-sqlite3";
import type { Catalog } from "./catalog.js";
import { toStoredRecord, type RecordRow } from "./read.js";

/**
 * Searched records in one change set from which it indexes them in its own transaction
 * rather than queueing them: at 100k persons an FTS5 segment costs ~11 pages for one
 * record, ~0.5 a record for 100 (docs/performance.md, "Search off the write's pages").
 */
export const SEARCH_DIRECT_MIN = 100;

/** What `apply` calls for each record it wrote (rid known). */
export interface SearchIndexer {
  /** Replaces the record's index row now (or removes it: deleted, or not a searched type). */
  put(rid: number, record: StoredRecord, inserted: boolean): void;
  /** Queues a searched record for the next merge (other types are not indexed). */
  queue(rid: number, record: StoredRecord): void;
}

/** The indexer of one connection. */
export function createSearchIndexer(client: Database.Database): SearchIndexer {
  const del = client.prepare("DELETE FROM record_search WHERE rowid = ?");
  const ins = client.prepare("INSERT INTO record_search (rowid, body) VALUES (?, ?)");
  const enqueue = client.prepare("INSERT OR IGNORE INTO search_pending (rid) VALUES (?)");
  return {
    put(rid, record, inserted) {
      if (!SEARCH_TYPES.includes(record.type)) return;
      if (!inserted) del.run(rid);
      const doc = searchDocument(record);
      if (doc !== undefined) ins.run(rid, doc);
    },
    queue(rid, record) {
      if (SEARCH_TYPES.includes(record.type)) enqueue.run(rid);
    },
  };
}

/**
 * `Storage.mergeSearchIndex` of one connection: up to `limit` queued records, oldest rid
 * first, each index row replaced from the record as it is now (removed when the record is
 * deleted or gone), and their queue rows removed, in one IMMEDIATE transaction. An empty
 * queue is one read, no lock. Several processes may merge at once: the queue is read inside
 * the write lock, so each entry is merged by one of them.
 */
export function createSearchMerger(client: Database.Database): (limit: number) => number {
  const any = client.prepare<[], number>("SELECT 1 FROM search_pending LIMIT 1").pluck();
  const next = client.prepare<[number], Partial<RecordRow> & { rid: number; flock: string | null; type: string | null }>(
    `SELECT p.rid, c.flock, c.type, r.id, r.state, r.data, r.display_value AS displayValue, r.created, r.last_updated AS lastUpdated, r.version
     FROM search_pending p LEFT JOIN records r ON r.rid = p.rid LEFT JOIN collections c ON c.cid = r.cid
     ORDER BY p.rid LIMIT ?`,
  );
  const del = client.prepare("DELETE FROM record_search WHERE rowid = ?");
  const ins = client.prepare("INSERT INTO record_search (rowid, body) VALUES (?, ?)");
  const done = client.prepare("DELETE FROM search_pending WHERE rid = ?");
  const step = client.transaction((limit: number) => {
    const rows = next.all(limit);
    for (const row of rows) {
      del.run(row.rid);
      done.run(row.rid);
      if (row.flock === null || row.type === null) continue; // purged since it was queued
      // undefined: deleted, or not a searched type.
      const doc = searchDocument(toStoredRecord(row as RecordRow, row.flock, row.type));
      if (doc !== undefined) ins.run(row.rid, doc);
    }
    return rows.length;
  });
  return (limit) => (limit <= 0 || any.get() === undefined ? 0 : step.immediate(Math.floor(limit)));
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
 * term as a word (or word prefix), in rid order, at most `limit`. What is queued is merged
 * first (`merge`: every batch; nothing when the queue is empty), so the answer holds every
 * acknowledged write; without `merge` (a read-only connection) it answers the index as merged.
 */
export function createSearcher(client: Database.Database, catalog: Catalog, merge?: (limit: number) => number) {
  const stmt = client.prepare<[string, string, number], RecordRow & { type: string }>(SEARCH_STATEMENT);
  return (flock: string, types: readonly string[], terms: readonly string[], limit: number, prefix: boolean): StoredRecord[] => {
    const cids = types.map((t) => catalog.collectionId(flock, t)).filter((c): c is number => c !== undefined);
    if (cids.length === 0 || terms.length === 0 || limit <= 0) return [];
    if (merge) while (merge(SEARCH_MERGE_BATCH) === SEARCH_MERGE_BATCH);
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
