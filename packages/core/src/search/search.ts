/**
 * @module search/search
 * Search over contacts: the candidates come from the storage's search index (whole-word
 * matches first, then word-start matches), ranked by closeness to the query
 * (`searchDistance`, closest first).
 */
import { badRequest } from "../errors.js";
import { requireFlockAndType } from "../records/guards.js";
import type { EngineContext } from "../records/types.js";
import { primaryEntry } from "../schema/list-entries.js";
import { recordUri } from "../schema/references.js";
import type { StoredRecord } from "../model/record.js";
import { searchDistance } from "./distance.js";
import { MAX_SEARCH_LENGTH, searchTerms } from "./search-text.js";

/** Default and largest number of search results. */
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
/** Candidates read from the index per result asked for, to rank by closeness among them. */
const CANDIDATES_PER_RESULT = 5;
const MAX_CANDIDATES = 500;

/** One search result, as the hosted service answers it. */
export interface SearchResult {
  display_value: string;
  distance: number;
  /** The record URI, as the hosted service's search schema gives it (clients chain it); the same as `uri`. */
  id: string;
  primary_email: string | null;
  primary_telephone: string | null;
  resource: string;
  uri: string;
}

/**
 * The contacts of `types` in `flock` matching `q`, closest first, at most `limit`. A query
 * without a letter or digit, or longer than `MAX_SEARCH_LENGTH`, is a 400.
 *
 * @example
 * await searchContacts(ctx, "demo", "ada love", ["person"], 10) // [{ display_value: "Ada Lovelace", distance: 0.25, ... }]
 */
export async function searchContacts(
  ctx: EngineContext,
  flock: string,
  q: string,
  types: readonly string[],
  limit: number,
): Promise<SearchResult[]> {
  for (const type of types) await requireFlockAndType(ctx, flock, type);
  if (q.length > MAX_SEARCH_LENGTH) throw badRequest("invalid search", `q is longer than ${MAX_SEARCH_LENGTH} characters`);
  const terms = searchTerms(q);
  if (terms.length === 0) throw badRequest("invalid search", "q must hold at least one letter or digit");
  const want = Math.min(MAX_CANDIDATES, limit * CANDIDATES_PER_RESULT);
  // Whole-word matches first (a name typed in full), then word-start matches to fill up:
  // both stop at `want` in the index's order, so a broad prefix never ranks thousands.
  const find = (prefix: boolean) => ctx.storage.searchRecords(flock, types, terms, want, prefix);
  const candidates = await find(false);
  if (candidates.length < want) {
    const seen = new Set(candidates.map((r) => r.id));
    for (const r of await find(true)) if (candidates.length < want && !seen.has(r.id)) candidates.push(r);
  }
  return candidates
    .map((r, i) => ({ r, i, distance: searchDistance(q, r) }))
    .sort((a, b) => a.distance - b.distance || a.i - b.i)
    .slice(0, limit)
    .map(({ r, distance }) => searchResult(r, distance));
}

/** A record as a search result; `id` is the record URI, as the hosted search answers it. */
export function searchResult(r: StoredRecord, distance: number): SearchResult {
  const list = (v: unknown) => (Array.isArray(v) ? v : v == null ? [] : [v]);
  const uri = recordUri(r.flock, r.type, r.id);
  return {
    display_value: r.displayValue,
    distance,
    id: uri,
    primary_email: primaryEntry(list(r.data.email))?.value ?? null,
    primary_telephone: primaryEntry(list(r.data.telephone))?.value ?? null,
    resource: r.type,
    uri,
  };
}
