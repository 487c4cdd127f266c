/**
 * @module query/limits
 * Every default and bound of the list query language and of the record data a client
 * writes, in one place (the HTTP server's own bounds on bodies are in its `http/limits`).
 * Each bound has its own 4xx message naming the limit and the value accepted; the reasons
 * and the measurements behind the values are in docs/decisions.md.
 */

/** Records per page when neither `page_size` nor `limit` is given (spec: 25). */
export const DEFAULT_PAGE_SIZE = 25;

/** Largest accepted `page_size` / `limit` (spec: 1500; above 1000 is allowed but slower). */
export const MAX_PAGE_SIZE = 1500;

/**
 * Largest accepted `page`. Any page past the last match is simply empty; the bound keeps
 * the row offset `(page - 1) * page_size` far inside a 64-bit database integer.
 */
export const MAX_PAGE = 1_000_000;

/**
 * Most filters in one request. A multi-value filter (`tags__and=a&tags__and=b`,
 * `tags__andlist=a,b`) counts once; each repeated single-value filter counts.
 */
export const MAX_FILTERS = 50;

/** Longest accepted filter value, in UTF-16 code units (after splitting comma lists). */
export const MAX_VALUE_LENGTH = 1024;

/** Most values in one multi-value filter (and, or, andlist, orlist, none). */
export const MAX_VALUES_PER_FILTER = 100;

/** Longest accepted field name in a filter. Schema field names are far shorter. */
export const MAX_FIELD_NAME_LENGTH = 128;

/**
 * The longest text one data field value may hold (also each list entry). Every value is
 * indexed for filtering (text, lower-cased text and their indexes), so a stored text costs
 * several times its size on disk; 256 KiB keeps notes, bios and email bodies comfortable.
 */
export const MAX_TEXT_VALUE_LENGTH = 262_144;

/**
 * Most entries in one list (JSON array) of a data field's value, at any depth. Every
 * top-level entry is indexed for filtering (a row each), so the bound keeps one list from
 * costing thousands of index rows.
 */
export const MAX_LIST_ENTRIES = 1000;

/**
 * Most data fields one record of an open type may hold. A record cannot drop a field once
 * set, so this also bounds how many new field names one write may add to its type's catalogue.
 */
export const MAX_FIELDS_PER_RECORD = 256;

/**
 * Most values in one record's data, at any depth: every field value, list entry and
 * object member counts one. It bounds the index rows a write makes (one per top-level
 * scalar or list entry: 2,000 new entries spread over a large index are written in about
 * 30 ms) and the cost of parsing the record on every read, whatever its shape.
 */
export const MAX_VALUES_PER_RECORD = 2000;

/**
 * Longest data of one record, in UTF-16 code units of its JSON text (about 1 MiB): the
 * record is read, parsed and written whole on every change. Files are stored apart and do
 * not count, only their URLs.
 */
export const MAX_RECORD_DATA_LENGTH = 1_048_576;

/** Longest file name of an upload, in UTF-16 code units (common file systems allow 255). */
export const MAX_FILE_NAME_LENGTH = 255;

/** Longest content type of an upload, in UTF-16 code units. */
export const MAX_CONTENT_TYPE_LENGTH = 255;

/**
 * Longest JSON text of one list answer (the page's `results`), in UTF-16 code units (4 MiB
 * for ASCII). A page past it is refused with a 400 suggesting a `page_size` that fits, found
 * while reading the page, so neither the storage read nor the answer ever holds much more.
 */
export const MAX_LIST_ANSWER_LENGTH = 4 * 1_048_576;

/**
 * Longest display value, in UTF-16 code units; a longer one is cut, ending in "…". It is a
 * short label, repeated in every reference the single-record answer expands, so a record
 * referencing many records with long names cannot make a huge answer.
 */
export const MAX_DISPLAY_VALUE_LENGTH = 1024;
