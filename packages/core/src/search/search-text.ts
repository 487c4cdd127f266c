/**
 * @module search/search-text
 * What the search index holds for a record, and how a query becomes terms: both folded the
 * same way (accents removed, lower case, split into letters-and-digits words), in one
 * place, so every adapter's index (SQLite FTS5, PostgreSQL full text) and the in-memory
 * reference agree on what matches. A query matches a record when every term is the start
 * of one of its words.
 */
import { parseEntry } from "../schema/list-entries.js";
import type { StoredRecord } from "../model/record.js";

/** The types the search index covers: the contacts. */
export const SEARCH_TYPES: readonly string[] = ["person", "organisation"];

/** The data fields indexed beside the display value (names, addresses, identifiers). */
const SEARCH_FIELDS: readonly string[] = [
  "first_name",
  "last_name",
  "known_as",
  "name",
  "legal_name",
  "trading_name",
  "email",
  "telephone",
  "postal_code",
  "locality",
  "domain",
  "membership_number",
];

/** Most terms a query may hold; most characters of a query. */
export const MAX_SEARCH_TERMS = 8;
export const MAX_SEARCH_LENGTH = 200;

/**
 * `text` folded for search: accents removed, lower-cased.
 *
 * @example
 * foldText("Zoë MÜLLER") // "zoe muller"
 */
export function foldText(text: string): string {
  // ASCII has no accents to remove: skip the (slow) normalisation.
  if (_ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}

const _ASCII = /^[\x00-\x7f]*$/;

/**
 * Longest word the index holds, in code points; a longer word is indexed cut to it. A
 * query is at most `MAX_SEARCH_LENGTH` characters, so every term that starts a long word
 * starts its cut form too, and no match is lost; PostgreSQL refuses a lexeme past 2,047
 * bytes (a write of a person named with one long word failed there). A name of its own
 * (not a duplicate export of MAX_SEARCH_LENGTH): the two limits may part.
 * @alias
 */
export const MAX_SEARCH_WORD_LENGTH = MAX_SEARCH_LENGTH;

/**
 * `text` cut to at most `max` code points (never inside a surrogate pair), reading no more
 * of it than that.
 *
 * @example
 * cutCodePoints("abcdef", 3) // "abc"
 */
export function cutCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

/**
 * The words of `text`, folded: runs of letters and digits.
 *
 * @example
 * searchWords("ada@Example.org; +44 (20)") // ["ada", "example", "org", "44", "20"]
 */
export function searchWords(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The indexed text of a record (its words joined by single spaces), or undefined when the
 * record is not indexed (another type, or deleted).
 *
 * @example
 * searchDocument(ada) // "ada lovelace ada lovelace ada example org"
 */
export function searchDocument(record: StoredRecord): string | undefined {
  if (!SEARCH_TYPES.includes(record.type) || record.state === "deleted") return undefined;
  const parts: string[] = [record.displayValue];
  for (const field of SEARCH_FIELDS) {
    const v = record.data[field];
    for (const entry of Array.isArray(v) ? v : [v]) {
      if (typeof entry === "string") parts.push(parseEntry(entry).value);
      else if (typeof entry === "number" && Number.isFinite(entry)) parts.push(String(entry));
    }
  }
  return [...new Set(searchWords(parts.join(" ")).map((w) => cutCodePoints(w, MAX_SEARCH_WORD_LENGTH)))].join(" ");
}

/**
 * Whether an update from `before` to `after`, changing the data fields `changed`, can
 * change the record's search document: its type is searched and its state, display value
 * or one of the searched fields changed. A write that cannot need not queue the record for
 * the index (a queued person costs its merge a delete and an insert in the FTS index).
 *
 * @example
 * searchDocumentMayChange(before, after, ["job_title"]) // false: not a searched field
 */
export function searchDocumentMayChange(before: StoredRecord, after: StoredRecord, changed: readonly string[]): boolean {
  if (!SEARCH_TYPES.includes(after.type) && !SEARCH_TYPES.includes(before.type)) return false;
  if (before.type !== after.type || before.state !== after.state || before.displayValue !== after.displayValue) return true;
  return changed.some((f) => SEARCH_FIELDS.includes(f));
}

/**
 * The terms of a query: its distinct words, at most `MAX_SEARCH_TERMS`.
 *
 * @example
 * searchTerms("Ada  LOVE") // ["ada", "love"]
 */
export function searchTerms(q: string): string[] {
  return [...new Set(searchWords(q))].slice(0, MAX_SEARCH_TERMS);
}

/**
 * True when every term is a word of `document`, or with `prefix` starts one (the reference
 * semantics of the index).
 *
 * @example
 * documentMatches("ada lovelace", ["love"], true) // true
 */
export function documentMatches(document: string, terms: readonly string[], prefix: boolean): boolean {
  const words = document.split(" ");
  return terms.every((t) => words.some((w) => (prefix ? w.startsWith(t) : w === t)));
}
