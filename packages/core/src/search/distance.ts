/**
 * @module search/distance
 * How close a record is to a search query, for ranking (0: the query is exactly its name
 * or an email address; 1: nothing alike). The edit distance of the folded query to the
 * nearest of the record's names and addresses, relative to the longer of the two; both cut
 * to `MAX_RANKED_LENGTH`, so that ranking costs a bounded time whatever a record holds.
 */
import { parseEntry } from "../schema/list-entries.js";
import type { StoredRecord } from "../model/record.js";
import { cutCodePoints, foldText, searchWords } from "./search-text.js";

/**
 * The distance from `q` to `record`, in [0, 1], to three decimals.
 *
 * @example
 * searchDistance("ada lovelace", ada) // 0
 */
export function searchDistance(q: string, record: StoredRecord): number {
  const query = cutCodePoints(searchWords(q).join(" "), MAX_RANKED_LENGTH);
  let best = 1;
  const seen = new Set<string>();
  for (const candidate of _candidates(record)) {
    const c = cutCodePoints(_words(candidate), MAX_RANKED_LENGTH);
    if (!c || seen.has(c)) continue;
    seen.add(c);
    const d = levenshtein(query, c) / Math.max(query.length, c.length, 1);
    if (d < best) best = d;
    if (seen.size >= MAX_RANKED_CANDIDATES) break;
  }
  return Math.round(best * 1000) / 1000;
}

/**
 * Characters of the query and of each name or address compared when ranking. The edit
 * distance costs the product of the two lengths, and a search ranks up to 500 records: a
 * name of 250,000 characters took about 0.2 s a record before. Names and addresses are
 * shorter than this in practice; longer ones rank by their start.
 */
export const MAX_RANKED_LENGTH = 64;

/** Most distinct names and addresses of one record compared (names first, then emails in order). */
export const MAX_RANKED_CANDIDATES = 12;

/**
 * The Levenshtein edit distance of two strings (UTF-16 units), in O(|a|·|b|) time and
 * O(|b|) memory.
 *
 * @example
 * levenshtein("kitten", "sitting") // 3
 */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0 || b.length === 0) return a.length + b.length;
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, sub);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

// --- internal ---

/** The texts a query is compared with: names, and each email's address and local part. */
function _candidates(r: StoredRecord): string[] {
  const out = [r.displayValue];
  for (const field of ["first_name", "last_name", "known_as", "name"]) {
    const v = r.data[field];
    if (typeof v === "string") out.push(v);
  }
  if (typeof r.data.first_name === "string" && typeof r.data.last_name === "string") out.push(`${r.data.first_name} ${r.data.last_name}`);
  const emails = r.data.email;
  for (const e of Array.isArray(emails) ? emails : [emails]) {
    if (typeof e !== "string") continue;
    const address = parseEntry(e).value;
    out.push(address, address.split("@")[0]!);
  }
  return out.map(foldText);
}

/** The words of already folded text, joined by single spaces. */
function _words(folded: string): string {
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
}
