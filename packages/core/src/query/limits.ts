/**
 * @module query/limits
 * Every default and bound of the list query language, in one place. Each bound has its own
 * 400 message in `parseListQuery`, naming the parameter and the value accepted.
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
