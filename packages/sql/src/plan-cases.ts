/**
 * @module plan-cases
 * The query-plan cases both adapters check on their own planner: the same query strings
 * (chosen for the PostgreSQL test's larger data set, whose planner weighs selectivity;
 * SQLite's, without statistics, plans them alike), with what each dialect's plan must name.
 */

/** A query string and what the plan of each dialect must name. */
export interface PlanCase {
  qs: string;
  /** A line of SQLite's `EXPLAIN QUERY PLAN`, as it names the index and its constraint. */
  sqlite: string;
  /** PostgreSQL's `EXPLAIN` text: the index, or a pattern of the plans it may choose. */
  postgres: string | RegExp;
}

/** Filters whose page and count read an index, never the whole table. */
export const INDEX_PLAN_CASES: PlanCase[] = [
  { qs: "last_name=Name3", sqlite: "record_values_fid_text_idx (fid=? AND text=?)", postgres: "record_values_fid_text_idx" },
  { qs: "last_name__startswith=Name123", sqlite: "record_values_fid_text_idx (fid=? AND text>? AND text<?)", postgres: "record_values_fid_text_idx" },
  // Case-insensitive filters read two ranges: the folded forms stored, and the texts that are their own fold.
  {
    qs: "last_name__startswithi=name123",
    sqlite: `record_values_fid_folded_idx (fid=? AND folded>? AND folded<?)
UNION ALL
SEARCH record_values USING COVERING INDEX record_values_fid_text_idx (fid=? AND text>? AND text<?)`,
    postgres: /record_values_fid_folded_idx[\s\S]*record_values_fid_text_idx|record_values_fid_text_idx[\s\S]*record_values_fid_folded_idx/,
  },
  { qs: "tags=t7", sqlite: "record_values_fid_text_idx (fid=? AND text=?)", postgres: "record_values_fid_text_idx" },
  { qs: "tags__and=t2&tags__and=x2", sqlite: "record_values_fid_text_idx (fid=? AND text=?)", postgres: "record_values_fid_text_idx" },
  { qs: "tags__none=t1", sqlite: "record_values_fid_text_idx (fid=? AND text=?)", postgres: "record_values_fid_text_idx" },
  { qs: "score__gte=19970", sqlite: "record_values_fid_num_idx (fid=? AND num>?)", postgres: "record_values_fid_num_idx" },
  { qs: "last_name__lt=Name10", sqlite: "record_values_fid_text_idx (fid=? AND text<?)", postgres: "record_values_fid_text_idx" },
  { qs: "created__gte=2025-01-01T05:33:00", sqlite: "records_cid_created_idx (cid=? AND created>?)", postgres: "records_cid_created_idx" },
  { qs: "last_updated__lt=2025-01-01T00:00:10", sqlite: "records_cid_last_updated_idx (cid=? AND last_updated<?)", postgres: "records_cid_last_updated_idx" },
  { qs: "last_name=Name3&tags=t1&mode=OR", sqlite: "record_values_fid_text_idx (fid=? AND text=?)", postgres: "record_values_fid_text_idx" },
  // Filters OR'd are one set of rids, each match then looked up by rid (not every record of
  // the collection tested against each filter).
  {
    qs: "last_name__startswith=Name12&last_name__startswith=Name34&mode=OR",
    sqlite: "records_cid_idx (cid=? AND rowid=?)",
    postgres: "record_values_fid_text_idx",
  },
  // Substring filters read one field's index range (either index starts with the field), not the table.
  { qs: "last_name__contains=me1234", sqlite: "COVERING INDEX record_values_fid_text_idx (fid=?)", postgres: /record_values_fid_(text|folded)_idx/ },
  {
    qs: "last_name__near=ME1234",
    sqlite: `COVERING INDEX record_values_fid_folded_idx (fid=? AND folded>?)
UNION ALL
SEARCH record_values USING COVERING INDEX record_values_fid_text_idx (fid=?)`,
    postgres: /record_values_fid_(text|folded)_idx/,
  },
];

/**
 * Pages (from the start or the end) that walk an index in order, never sort. PostgreSQL
 * may walk the primary key in rid order instead when the collection is a large share.
 */
export const PAGING_PLAN_CASES: (PlanCase & { fromEnd: boolean })[] = [
  // Live records: the collection's walk, past the few deleted ones (no index holds the live alone).
  { qs: "", fromEnd: false, sqlite: "records_cid_idx (cid=?)", postgres: /records_cid_idx|records_pkey/ },
  { qs: "", fromEnd: true, sqlite: "records_cid_idx (cid=?)", postgres: /records_cid_idx|Index Scan Backward using records_pkey/ },
  { qs: "include_deleted=Y", fromEnd: false, sqlite: "records_cid_idx (cid=?)", postgres: /records_cid_idx|records_pkey/ },
  { qs: "include_deleted=Y&state=deleted", fromEnd: true, sqlite: "records_cid_deleted_idx (cid=?)", postgres: /records_cid_deleted_idx/ },
  { qs: "tags=t7", fromEnd: true, sqlite: "records_cid_idx (cid=? AND rowid=?)", postgres: /records_cid_idx|Index Scan Backward using records_pkey/ },
];

/** Filters whose count of every state reads the value index alone. */
export const MATCH_COUNT_PLAN_CASES: PlanCase[] = [
  { qs: "last_name=Name3", sqlite: "COVERING INDEX record_values_fid_text_idx (fid=? AND text=?)", postgres: "Index Only Scan using record_values_fid_text_idx" },
  {
    qs: "last_name__startswithi=name123",
    sqlite: `COVERING INDEX record_values_fid_folded_idx (fid=? AND folded>? AND folded<?)
USE TEMP B-TREE FOR ORDER BY
RIGHT
SEARCH record_values USING COVERING INDEX record_values_fid_text_idx (fid=? AND text>? AND text<?)`,
    postgres: /Index Only Scan using record_values_fid_folded_idx[\s\S]*Index Only Scan using record_values_fid_text_idx|Index Only Scan using record_values_fid_text_idx[\s\S]*Index Only Scan using record_values_fid_folded_idx/,
  },
  { qs: "tags__and=t2&tags__and=x2", sqlite: "COVERING INDEX record_values_fid_text_idx (fid=? AND text=?)", postgres: "Index Only Scan using record_values_fid_text_idx" },
  { qs: "last_name=Name3&tags=t1&mode=OR", sqlite: "COVERING INDEX record_values_fid_text_idx (fid=? AND text=?)", postgres: "Index Only Scan using record_values_fid_text_idx" },
  { qs: "score__gte=19970", sqlite: "record_values_fid_num_idx (fid=? AND num>?)", postgres: "record_values_fid_num_idx" },
];
