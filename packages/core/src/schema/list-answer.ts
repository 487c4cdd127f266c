/**
 * @module schema/list-answer
 * The bounded list answer: the paged wrapper as JSON text, built one element at a time so
 * that a page too large for `MAX_LIST_ANSWER_LENGTH` is refused as soon as it is known,
 * before the whole text exists. Storage adapters stop reading a page early by the same
 * bound (`ListQuery.maxDataLength`) and throw the same error.
 */
import { RecordsError } from "../errors.js";
import { MAX_LIST_ANSWER_LENGTH } from "../query/limits.js";
import type { ListPage, ListQuery } from "../model/query.js";
import type { StoredRecord } from "../model/record.js";
import { listElementText, toListWrapper } from "./envelope.js";

/**
 * The 400 for a page whose answer would pass `limit` characters. `fit` is how many of the
 * page's records, taken in the order read, fit; the detail suggests it as a `page_size`.
 *
 * @example
 * throw listAnswerTooLarge(12); // 400 "answer too large": "... ask for page_size=12 or less ..."
 */
function listAnswerTooLarge(fit: number, limit: number = MAX_LIST_ANSWER_LENGTH): RecordsError {
  const advice =
    fit > 0
      ? `ask for page_size=${fit} or less (pages are then numbered for that size)`
      : "one record of this page alone passes it: read the records one by one with GET";
  return new RecordsError(
    "bad_request",
    "answer too large",
    `the records of this page would make the list answer longer than ${limit} characters of JSON, ` +
      `the most one answer may hold; ${advice}`,
  );
}

/**
 * What each record adds to a list answer besides its data's JSON text, at the least (the
 * element's `_id`, `id`, `uri`, times, state ... come to about 230 characters). Storage
 * counts it with each record, so its early refusal never refuses a page whose answer fits,
 * and the page size it suggests is close to the one the answer allows.
 */
export const LIST_ELEMENT_MIN_OVERHEAD = 200;

/** True for the error `listAnswerTooLarge` makes (a reader's budget was passed). */
export function isListAnswerTooLarge(e: unknown): boolean {
  return e instanceof RecordsError && e.code === "bad_request" && e.message === "answer too large";
}

/**
 * A page reader's budget for `ListQuery.maxDataLength`: call it with each record's data
 * length (its JSON text) in page order; it counts `LIST_ELEMENT_MIN_OVERHEAD` more per
 * record and throws `listAnswerTooLarge` at the first record that passes `max`. Without
 * `max` it never throws.
 *
 * @example
 * const take = dataBudget(query.maxDataLength);
 * for (const row of rows) take(row.data.length);
 */
export function dataBudget(max: number | undefined): (length: number) => void {
  let total = 0;
  let count = 0;
  return (length) => {
    total += length + LIST_ELEMENT_MIN_OVERHEAD;
    if (max !== undefined && total > max) throw listAnswerTooLarge(count, max);
    count += 1;
  };
}

/** Options of `listAnswerText`. */
export interface ListAnswerOptions {
  /** The bound on the results' JSON text; default `MAX_LIST_ANSWER_LENGTH`. */
  limit?: number;
  /**
   * Awaited after each `ANSWER_SLICE_LENGTH` of text, so a host can give its event loop a
   * turn while a large page is serialized (the server passes `setImmediate`). Default: none.
   */
  pause?: () => Promise<void>;
  /** Shapes each result; default `toListElement`'s shape (a read model may add members to it). */
  element?: (record: StoredRecord) => unknown;
}

/** How much answer text `listAnswerText` writes between two `pause` calls. */
const ANSWER_SLICE_LENGTH = 64 * 1024;

/**
 * The list wrapper of `page` (as `toListWrapper` shapes it) as JSON text. Throws
 * `listAnswerTooLarge` once the results pass the limit, having built only what came before.
 *
 * @example
 * const text = await listAnswerText(await engine.list(flock, type, query), query);
 */
export async function listAnswerText(page: ListPage<StoredRecord>, query: ListQuery, opts: ListAnswerOptions = {}): Promise<string> {
  const limit = opts.limit ?? MAX_LIST_ANSWER_LENGTH;
  const parts: string[] = [];
  let length = 0;
  let since = 0;
  for (const record of page.records) {
    if (opts.pause && since > ANSWER_SLICE_LENGTH) {
      since = 0;
      await opts.pause();
    }
    const text = opts.element ? JSON.stringify(opts.element(record)) : listElementText(record);
    length += text.length + 1;
    since += text.length;
    if (length > limit) throw listAnswerTooLarge(parts.length, limit);
    parts.push(text);
  }
  // The wrapper's other members, in toListWrapper's order, around the results.
  const { results: _results, formatted_results: _formatted, ...head } = toListWrapper({ total: page.total, records: [] }, query);
  return `${JSON.stringify(head).slice(0, -1)},"results":[${parts.join(",")}],"formatted_results":[]}`;
}
