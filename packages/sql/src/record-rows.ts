/**
 * @module record-rows
 * A record row as both adapters select it (the `ROW_COLUMNS` names) and the stored record
 * it holds. The adapters differ only in how stored text reads back (PostgreSQL escapes
 * what its text type cannot hold), which they pass as `decode`.
 */
import { recordOfDataText, type ListQuery, type StoredRecord } from "@records-service/core";

/** A record row as selected (`type` and `flock` are known to the caller or joined). */
export interface RecordRow {
  id: string;
  state: string;
  data: string;
  displayValue: string;
  created: string;
  lastUpdated: string;
  version: number;
}

/**
 * The stored record of a row; `decode` turns the stored display value back into what was
 * written (the identity by default).
 *
 * @example
 * rows.map((row) => recordFromRow(row, "demo", "person"));
 */
export function recordFromRow(row: RecordRow, flock: string, type: string, decode: (text: string) => string = _same): StoredRecord {
  return {
    id: row.id,
    flock,
    type,
    state: row.state as StoredRecord["state"],
    data: JSON.parse(row.data) as Record<string, unknown>,
    displayValue: decode(row.displayValue),
    created: row.created,
    lastUpdated: row.lastUpdated,
    version: row.version,
  };
}

/**
 * `recordFromRow`, its data parsed only when first read (`recordOfDataText`): a list page's
 * records, whose stored text the answer can hold as it is.
 *
 * @example
 * page.records.map((row) => listedRecordFromRow(row, "demo", "person"));
 */
export function listedRecordFromRow(row: RecordRow, flock: string, type: string, decode: (text: string) => string = _same): StoredRecord {
  return recordOfDataText(
    {
      id: row.id,
      flock,
      type,
      state: row.state as StoredRecord["state"],
      displayValue: decode(row.displayValue),
      created: row.created,
      lastUpdated: row.lastUpdated,
      version: row.version,
    },
    row.data,
  );
}

/** The names of the data fields a query filters or sorts on (the field ids a compile needs). */
export function filterFields(query: Pick<ListQuery, "filters" | "sort">): string[] {
  const fields = query.filters.filter((f) => !f.meta).map((f) => f.field);
  if (query.sort && !query.sort.meta) fields.push(query.sort.field);
  return fields;
}

// --- internal ---

function _same(text: string): string {
  return text;
}
