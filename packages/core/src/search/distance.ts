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
  for (const candidate of _candidates(record)) {
    const c = searchWords(candidate).join(" ");
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
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
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
