/**
 * @module search/distance
 * How close a record is to a search query, for ranking (0: the query is exactly its name
 * or an email address; 1: nothing alike). The edit distance of the folded query to the
 * nearest of the record's names and addresses, relative to the longer of the two.
 */
import { parseEntry } from "../schema/list-entries.js";
import type { StoredRecord } from "../storage/types.js";
import { foldText, searchWords } from "./search-text.js";

/**
 * The distance from `q` to `record`, in [0, 1], to three decimals.
 *
 * @example
 * searchDistance("ada lovelace", ada) // 0
 */
export function searchDistance(q: string, record: StoredRecord): number {
  const query = searchWords(q).join(" ");
  let best = 1;
  for (const candidate of new Set(_candidates(record))) {
    const c = _words(candidate);
    if (!c) continue;
    const d = levenshtein(query, c) / Math.max(query.length, c.length, 1);
    if (d < best) best = d;
  }
  return Math.round(best * 1000) / 1000;
}

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
