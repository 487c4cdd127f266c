/**
 * @module bulk-io/record-table
 * Records as the rows of a table file (CSV or XLSX through exports/table-file), with the
 * conventions `import` reads back (bulk-io/read-rows): the envelope's columns first, then
 * the data fields; a person's list field as its entries joined by `;` (a JSON array when an
 * entry would not survive that: it holds a `;`, is not text, or the list is empty), its
 * booleans as `true`/`false`; any other value that is not text as its JSON. Used by
 * `records-service export --format csv` and by `GET /api/v1/{flock}/{type}/export`.
 */
import { PERSON_FIELDS, type ListSort, type RecordReader, type ScanQuery, type StoredRecord } from "@records-service/core";
import type { TableCell, TableColumn } from "../exports/table-file.js";

/**
 * What the walks below read through: `engine.read` (the HTTP export) or the CLI's own
 * Storage (`records-service export` opens the database without a server's configuration).
 */
export type RecordWalker = Pick<RecordReader, "scanRecords" | "listRecords">;

/** The envelope's columns, in the order of an export line. */
export const ENVELOPE_COLUMNS = ["type", "id", "state", "created", "last_updated", "version"] as const;

/**
 * The data fields of a table of `type`: a person's are its schema's (the same columns
 * whatever the records hold); another type's are every key its matching records hold, in
 * order of first appearance (one extra walk over the records, a step at a time).
 */
export async function dataFieldsOf(records: RecordWalker, flock: string, type: string, query: ScanQuery): Promise<string[]> {
  if (type === "person") return Object.keys(PERSON_FIELDS);
  const seen = new Set<string>();
  for await (const r of scanAll(records, flock, type, query)) for (const k of Object.keys(r.data)) seen.add(k);
  return [...seen];
}

/** Table columns for `fields` (envelope keys and data fields alike), each labelled by its name. */
export function columnsOf(fields: readonly string[]): TableColumn[] {
  return fields.map((f) => ({ field: f, label: f }));
}

/** Every record of `type` matching `query`, in insertion order, read `step` at a time. */
export async function* scanAll(records: RecordWalker, flock: string, type: string, query: ScanQuery, step = 1000): AsyncGenerator<StoredRecord> {
  let after: string | null = null;
  do {
    const page = await records.scanRecords(flock, type, query, after, step);
    yield* page.records;
    after = page.cursor;
  } while (after !== null);
}

/**
 * Every record `query` matches in the order of `sort`, a list page of `step` at a time:
 * what the list shows, page after page. Pages are read by position, so a write between two
 * pages may move a record across the cut (a scan by rid, `scanAll`, has no such edge).
 */
export async function* listAllSorted(records: RecordWalker, flock: string, type: string, query: ScanQuery, sort: ListSort, step = 1000): AsyncGenerator<StoredRecord> {
  for (let page = 1; ; page++) {
    const found = (await records.listRecords(flock, type, { ...query, sort, page, pageSize: step })).records;
    yield* found;
    if (found.length < step) return;
  }
}

/**
 * The row of `record` for `fields`: envelope keys read from the envelope, other names from
 * `data`. `native` keeps numbers and booleans as such (XLSX cells); otherwise every cell is
 * text as a CSV import reads it.
 *
 * @example
 * tableRow(person, ["id", "email"]) // { id: "…", email: "ada@example.org;ada@work.example" }
 */
export function tableRow(record: StoredRecord, fields: readonly string[], native = false): Record<string, TableCell> {
  const row: Record<string, TableCell> = {};
  for (const f of fields) {
    const value = _envelope(record, f);
    row[f] = value !== _NOT_ENVELOPE ? (value as TableCell) : cellText(record.type, f, record.data[f], native);
  }
  return row;
}

/**
 * One data value as a cell, the inverse of import's `cellValue`.
 *
 * @example
 * cellText("person", "tags", ["vip", "donor"]) // "vip;donor"
 * cellText("person", "tags", ["a;b"])          // '["a;b"]'
 * cellText("event", "capacity", 40)            // "40"
 */
function cellText(type: string, field: string, value: unknown, native = false): TableCell {
  if (value === null || value === undefined) return null;
  if (native && (typeof value === "number" || typeof value === "boolean")) return value;
  if (typeof value === "string") return value;
  if (type === "person" && PERSON_FIELDS[field] === "list" && Array.isArray(value)) {
    const plain = value.length > 0 && value.every((e) => typeof e === "string" && e.trim() === e && e !== "" && !e.includes(";")) && !String(value[0]).startsWith("[");
    return plain ? value.join(";") : JSON.stringify(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  return JSON.stringify(value);
}

// --- internal ---

const _NOT_ENVELOPE = Symbol("not an envelope key");

function _envelope(r: StoredRecord, field: string): unknown {
  switch (field) {
    case "type":
      return r.type;
    case "id":
      return r.id;
    case "state":
      return r.state;
    case "created":
      return r.created;
    case "last_updated":
      return r.lastUpdated;
    case "version":
      return r.version;
    default:
      return _NOT_ENVELOPE;
  }
}
