/**
 * @module http/response-cache
 * Serialized answers (JSON text) kept while the database is unchanged. A single record's
 * envelope depends on other records too (referenced records' display values), so an entry
 * is not dropped per record: every entry is valid only for the storage's change generation
 * it was built under, and any write anywhere makes all of them stale. Storage without a
 * change generation is never cached against.
 */
import type { Storage } from "@records-service/core";

/** Bounds of `createResponseCache`. */
export interface ResponseCacheOptions {
  /** Most entries kept; past it the oldest go first. Default 50,000. */
  maxEntries?: number;
  /** Most characters of text kept; past it the oldest entries go first. Default 32 M (~64 MB). */
  maxChars?: number;
  /** The longest text kept at all (a longer one is not cached). Default `maxChars`. */
  maxEntryChars?: number;
}

/** A cache of response texts by key. */
export interface ResponseCache {
  /** The current generation, or undefined when nothing can be cached; pass it to `set`. */
  generation(): number | undefined;
  /** The text cached for `key` under the current generation `gen`, if any. */
  get(key: string, gen: number): string | undefined;
  /** Keeps `text` for `key`, built from data read under generation `gen`. */
  set(key: string, gen: number, text: string): void;
  /** Entries held (for tests). */
  size(): number;
}

/**
 * A response cache over `storage`'s change generation. Past its bounds the entries kept
 * longest are dropped first (first in, first out: a set of answers a little larger than the
 * bounds still mostly hits, where emptying the whole cache at the bound made most requests
 * miss; an LRU's reordering on every hit buys little over it for uniform reads).
 *
 * @example
 * const gen = cache.generation();
 * const text = gen === undefined ? undefined : cache.get(key, gen);
 */
export function createResponseCache(storage: Storage, opts: ResponseCacheOptions = {}): ResponseCache {
  const maxEntries = opts.maxEntries ?? 50_000;
  const maxChars = opts.maxChars ?? 32 * 1024 * 1024;
  const maxEntryChars = Math.min(maxChars, opts.maxEntryChars ?? maxChars);
  const entries = new Map<string, string>();
  let held = -1;
  let chars = 0;

  const clear = () => {
    entries.clear();
    chars = 0;
  };

  return {
    generation: () => storage.changeGeneration(),
    get(key, gen) {
      if (gen !== held) return undefined;
      return entries.get(key);
    },
    set(key, gen, text) {
      // Text read under an older generation may already be stale: not kept.
      if (gen !== storage.changeGeneration()) return;
      if (gen !== held) {
        clear();
        held = gen;
      }
      if (text.length > maxEntryChars) return;
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        chars -= old.length;
      }
      // Map order is insertion order: the first keys are the oldest.
      for (const [k, v] of entries) {
        if (entries.size < maxEntries && chars + text.length <= maxChars) break;
        entries.delete(k);
        chars -= v.length;
      }
      entries.set(key, text);
      chars += text.length;
    },
    size: () => entries.size,
  };
}
