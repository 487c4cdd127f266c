/**
 * @module storage/record-store
 * The records of every flock and the index that answers lists, references and walks over
 * them; `apply` commits a whole change set (records, files, outbox jobs, change rows) at once.
 */
import type { ChangeSet } from "../model/change-set.js";
import type { ListPage, ListQuery } from "../model/query.js";
import type { RecordKey, StoredRecord } from "../model/record.js";
import type { TicketStockRow } from "../model/ticket-stock.js";

/** Summary row of `GET /api/v1/{flock}/`. */
export interface TypeSummary {
  name: string;
  /** Records not deleted. */
  count: number;
  /** Latest `lastUpdated` of any record of the type (deleted ones included). */
  lastModified: string;
}

/** What `scanRecords` matches: a list query without its page. */
export type ScanQuery = Pick<ListQuery, "filters" | "mode" | "states">;

/** One step of `scanRecords`. */
export interface ScanPage {
  records: StoredRecord[];
  /** Where the next step starts; `null` when the walk is complete. */
  cursor: string | null;
}

/** One match of `listFieldValues`: its id and the stored values of the fields asked for. */
export interface FieldValuesRow {
  id: string;
  /** The value of each field asked for, in the order asked, as stored; undefined when the record has no such field. */
  values: unknown[];
}

/** The lengths `countFieldValues` may cut a date or timestamp text to: its year (4), month (7) or day (10). */
export type DateCut = 4 | 7 | 10;

/** One group of `countFieldValues`: the stored values of the fields asked for, and how many matches hold them. */
export interface FieldCountRow {
  /** The value of each field asked for, in the order asked, as stored; undefined when the records have no such field. */
  values: unknown[];
  count: number;
}

/** What `getDisplayValues` answers for each record found. */
export interface DisplayValueRow {
  type: string;
  id: string;
  displayValue: string;
}

/** Records, their index and the one atomic write. */
export interface RecordStore {
  /** One record in any state, or undefined. */
  getRecord(flock: string, type: string, id: string): Promise<StoredRecord | undefined>;
  /** Several records of one flock by key, in any state; missing ones are left out. */
  getRecords(flock: string, keys: RecordKey[]): Promise<StoredRecord[]>;
  /**
   * The display values of several records of one flock, as `getRecords` would find them,
   * without reading their data: what the single-record answer needs to expand references.
   */
  getDisplayValues(flock: string, keys: RecordKey[]): Promise<DisplayValueRow[]>;
  /**
   * The page of records of `type` in `flock` matching `query`, ordered by creation
   * (insertion order, ties by id), and the total number of matches. Filtering, counting
   * and paging happen in the database.
   */
  listRecords(flock: string, type: string, query: ListQuery): Promise<ListPage<StoredRecord>>;
  /**
   * Records in `flock` (of a type that `keepsReferences`: not a data event; any state) with a
   * data field, or a list entry's value part, equal to `uri`: the records that reference it.
   * With `maxDataLength`, reading stops
   * at the first record past it (counted as for `ListQuery.maxDataLength`) with the same
   * 400 `listAnswerTooLarge`, so hundreds of large records are never read in one go.
   */
  listReferencing(flock: string, uri: string, limit: number, maxDataLength?: number): Promise<StoredRecord[]>;
  /**
   * Walks the records of `type` in `flock` matching `query` (its filters, mode and states;
   * paging is ignored) in insertion order: up to `limit` records after the position
   * `after` (`null`: from the start), and the `cursor` to pass as `after` for the next
   * step, `null` once nothing follows. The cursor is opaque and stays valid while records
   * change, so a long task visits each record at most once even when its own writes
   * change which records match (bulk tasks store it with their progress). With
   * `maxDataLength`, a step also ends before the record that would take its records' data
   * past it (counted as for `ListQuery.maxDataLength`; the first record is always taken),
   * so one step of a task never reads hundreds of large records at once.
   */
  scanRecords(flock: string, type: string, query: ScanQuery, after: string | null, limit: number, maxDataLength?: number): Promise<ScanPage>;
  /**
   * The records of `type` in `flock` matching `query` (filters, mode and states, as for
   * `listRecords`), in insertion order, at most `limit`, each as its id and the stored
   * values of the data fields `fields` (names of `FIELD_NAME_RE`; undefined where the
   * record has no such field; `id`, `created` and `last_updated` name the record's own
   * columns, as in filters), without reading or returning the rest of the record: a list
   * that must order or count many records by a few fields reads only those fields.
   * Adapters pick the values out of the stored data in the database.
   */
  listFieldValues(flock: string, type: string, query: ScanQuery, fields: readonly string[], limit: number): Promise<FieldValuesRow[]>;
  /**
   * The records of `type` in `flock` matching `query` (as for `listFieldValues`) grouped by
   * the stored values of the data fields `fields` (as for `listFieldValues`): one row per
   * distinct combination, with how many matches hold it, ordered by each group's first
   * match in insertion order. Values are compared as stored JSON (absent and null apart; an
   * object whose keys come in another order is another group). Adapters group and count in
   * the database, so counting many records by a few fields reads one row per group.
   * `cuts` (one per field, undefined for none) groups a field by its values cut as
   * `cutDates` cuts them (a date or timestamp text to its year, month or day; list entries
   * alike; other values whole), and `values` holds the cut values: the database cuts before
   * it groups, so counting a timestamp by month reads one row per month, not per record.
   * A cut other than a `DateCut` is a 400 `invalid cut`.
   */
  countFieldValues(flock: string, type: string, query: ScanQuery, fields: readonly string[], cuts?: readonly (DateCut | undefined)[]): Promise<FieldCountRow[]>;
  /**
   * The ticket stock of the bookings `bookings` (canonical URIs) in `flock`: one row per
   * booking and ticket type that its counted tickets take stock of (`model/ticket-stock`),
   * in no particular order; a pair whose tickets take nothing may be left out or given with
   * zeros. Adapters keep it stored, changed by each ticket write in its transaction, so a
   * list of events reads one row per ticket type instead of every ticket.
   */
  listTicketStock(flock: string, bookings: readonly string[]): Promise<TicketStockRow[]>;
  /** One row per resource type that has records in the flock, ordered by name. */
  summarizeTypes(flock: string): Promise<TypeSummary[]>;
  /**
   * Applies the change set atomically. Throws `RecordsError("conflict")` and applies
   * nothing if an update's `expectedVersion` is not the stored version, or an insert's id
   * exists.
   */
  apply(changes: ChangeSet): Promise<void>;
  /**
   * Removes records of `type` in `flock` for good, in one transaction: with their files,
   * their index entries and the outbox jobs of those that are data events. Used to purge
   * expired data events; deletion through the API only marks a record deleted. Ids that
   * are not there are ignored. Returns how many records were removed.
   */
  deleteRecords(flock: string, type: string, ids: readonly string[]): Promise<number>;
}
